package dev.zkspring.lock;

import org.jspecify.annotations.Nullable;

import dev.zkspring.client.SessionLease;

/**
 * This JVM's turn on a key: its node heads the queue, as a read in session {@link #session} showed.
 * Bound to that session and to the registry's interruption count at the time of the read, so it admits
 * holders only while both still hold and the session lease is valid; once in doubt it stays in doubt.
 */
final class Turn {

	/** Not a turn: what a wait that ended at its deadline answers. */
	static final Turn BUSY = new Turn();

	final String node;

	final boolean shared;

	final long session;

	final long epoch;

	final long firstToken;

	private final @Nullable SessionLease lease;

	private final @Nullable LockRegistry registry;

	/** The connection was interrupted, the lease lapsed or the node was deleted while it lasted. */
	private volatile boolean doubt;

	/** Whether a holder took the free first token; guarded by the key's lock. */
	boolean firstTokenClaimed;

	private Turn() {
		this.node = "";
		this.shared = false;
		this.session = 0;
		this.epoch = -1;
		this.firstToken = 0;
		this.lease = null;
		this.registry = null;
		this.doubt = true;
	}

	Turn(String node, boolean shared, long session, long epoch, long firstToken, LockRegistry registry) {
		this.node = node;
		this.shared = shared;
		this.session = session;
		this.epoch = epoch;
		this.firstToken = firstToken;
		this.lease = registry.lease;
		this.registry = registry;
	}

	/** Whether the turn is certainly still ours now: no round trip, a few volatile reads. */
	boolean valid() {
		return !this.doubt && this.registry != null && this.registry.epoch() == this.epoch
				&& this.lease != null && this.lease.isValidFor(this.session);
	}

	/** Whether a holder of the given kind may be admitted now (first, or by local hand-off). */
	boolean admits(boolean shared) {
		return (shared || !this.shared) && valid();
	}

	void doubt() {
		this.doubt = true;
	}

	boolean inDoubt() {
		return this.doubt;
	}

}
