package dev.zkspring.docs.locks;

import org.springframework.stereotype.Component;
import org.springframework.stereotype.Service;

import dev.zkspring.lock.ZkLock;

// docs/locks.md, "What a lock does not protect": the pattern that loses updates (docs check: DocsSnippetsTests).

// tag::lost-update[]
@Component
class VisitController {                        // a controller, or any caller outside the lock

	private final Owners owners;

	private final VisitService visits;

	VisitController(Owners owners, VisitService visits) {
		this.owners = owners;
		this.visits = visits;
	}

	void addVisit(int ownerId) {
		Owner owner = this.owners.findById(ownerId);   // read BEFORE the lock
		owner.addVisit();
		this.visits.save(owner);                       // locked, but it writes what was read unlocked
	}

}

@Service
class VisitService {

	private final Owners owners;

	VisitService(Owners owners) {
		this.owners = owners;
	}

	@ZkLock(key = "'owner:' + #owner.id")
	public void save(Owner owner) {
		this.owners.save(owner);                       // the last writer wins: the others' visits are lost
	}

}
// end::lost-update[]
