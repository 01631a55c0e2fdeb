package dev.zkspring.docs.locks;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.stereotype.Repository;

/**
 * A store of owners that, like a database, hands out copies: what a caller read is what it writes back.
 * {@link #saveFenced} is the conditional write a fencing token needs.
 */
@Repository
class Owners {

	private final Map<Integer, Owner> rows = new ConcurrentHashMap<>();

	/** Called after each read: the test holds readers there to force the interleaving it describes. */
	volatile Runnable afterRead = () -> { };

	Owner findById(int id) {
		Owner owner = this.rows.getOrDefault(id, new Owner(id, 0, 0)).copy();
		this.afterRead.run();
		return owner;
	}

	void save(Owner owner) {
		this.rows.put(owner.getId(), owner.copy());
	}

	/**
	 * {@code UPDATE owner SET visits = ?, fence = :token WHERE id = ? AND fence = :fenceRead AND fence < :token}:
	 * writes only when nobody wrote since the owner was read, and no later holder of the lock wrote.
	 */
	synchronized boolean saveFenced(Owner owner, long token) {
		Owner stored = this.rows.getOrDefault(owner.getId(), new Owner(owner.getId(), 0, 0));
		if (stored.getFence() != owner.getFence() || stored.getFence() >= token) {
			return false;
		}
		this.rows.put(owner.getId(), new Owner(owner.getId(), owner.getVisits(), token));
		return true;
	}

}
