package dev.zkspring.docs.locks;

import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;

import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockContext;

// docs/locks.md, "What a lock does not protect": the fencing token (docs check: DocsSnippetsTests).

// tag::fenced[]
@Component
class FencedVisitController {                  // still reads outside the lock

	private final Owners owners;

	private final FencedVisits visits;

	FencedVisitController(Owners owners, FencedVisits visits) {
		this.owners = owners;
		this.visits = visits;
	}

	void addVisit(int ownerId) {
		Owner owner;
		do {
			owner = this.owners.findById(ownerId);
			owner.addVisit();
		}
		while (!this.visits.save(owner));              // refused: somebody wrote since the read; read again
	}

}

@Service
class FencedVisits {

	private final Owners owners;

	FencedVisits(Owners owners) {
		this.owners = owners;
	}

	@ZkLock(key = "'owner:' + #owner.id")
	public boolean save(Owner owner) {
		long token = ZkLockContext.current().getFencingToken();
		// UPDATE owner SET visits = ?, fence = :token WHERE id = ? AND fence = :fenceRead AND fence < :token
		return this.owners.saveFenced(owner, token);
	}

}
// end::fenced[]
