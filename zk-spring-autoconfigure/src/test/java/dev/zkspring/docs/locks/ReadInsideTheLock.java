package dev.zkspring.docs.locks;

import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import dev.zkspring.lock.ZkLock;

// docs/locks.md, "What a lock does not protect": the read inside the lock (docs check: DocsSnippetsTests).

// tag::read-inside[]
@Service
class Visits {

	private final Owners owners;

	Visits(Owners owners) {
		this.owners = owners;
	}

	@ZkLock(key = "'owner:' + #ownerId")
	@Transactional
	public void addVisit(int ownerId) {
		Owner owner = this.owners.findById(ownerId);   // read INSIDE the lock: the previous holder's write is there
		owner.addVisit();
		this.owners.save(owner);
	}

}
// end::read-inside[]
