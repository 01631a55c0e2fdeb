package dev.zkspring.lock;

/**
 * Points between two steps of the lock where tests make a fault happen at a chosen moment (stop the
 * server, expire the session, start another caller). Does nothing unless a test sets one.
 */
class LockHooks {

	static final LockHooks NONE = new LockHooks();

	/** A read just confirmed this JVM's turn on the key; no holder has been admitted yet. */
	void confirmed(String key) {
	}

	/**
	 * A request of an acquisition is about to be sent, without the key's state lock: "create" (the root's
	 * check at first use, then the create), "children behind the create", "children", "blocker watch",
	 * "planted", "strays", "holders" (try once) or "waiters" (the check of a local hand-off).
	 */
	void sending(String key, String request) {
	}

	/** A holder passed the admission check and is about to be granted the key (the key's state lock is held). */
	void admitting(String key) {
	}

	/**
	 * A holder left the key (its node kept for a local waiter or given up) but still holds the key's local
	 * lock, so no local waiter has moved yet.
	 */
	void left(String key) {
	}

	/**
	 * The JVM's node of the key is about to be deleted (in the background); local state says the key is
	 * free already, and no thread of this JVM sends a request on the key before the delete is sent.
	 */
	void deleting(String key) {
	}

	/** A holder just let go of the key's local lock, so a queued local thread may take it next. */
	void localLockReleased(String key) {
	}

}
