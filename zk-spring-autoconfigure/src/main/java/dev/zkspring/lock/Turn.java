package dev.zkspring.lock;

import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

import dev.zkspring.client.SessionLease;

/**
 * This JVM's turn on a key: its node heads the queue, as a read in session {@link #session} showed.
 * Bound to that session and to the registry's interruption count at the time of the read, so it admits
 * holders only while both still hold and the session lease is valid; once in doubt it stays in doubt.
 */
final class Turn {

	/**
	 * How long a read that found no other JVM waiting stands in for the hand-off check while the children
	 * watch it armed stays silent: a bound for a watch notification held up on the client's event thread.
	 */
	static final long QUIET_FOR_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

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

	/** Whether the read that confirmed the turn showed another JVM's node that conflicts with ours. */
	final boolean othersQueued;

	/** Children events seen when the latest quiet read armed the watch; -1 for none. Guarded by the key's lock. */
	private long quietAt = -1;

	/** When that read was sent or answered ({@link System#nanoTime()}); guarded by the key's lock. */
	private long quietReadNanos;

	private Turn() {
		this.node = "";
		this.shared = false;
		this.session = 0;
		this.epoch = -1;
		this.firstToken = 0;
		this.lease = null;
		this.registry = null;
		this.othersQueued = true;
		this.doubt = true;
	}

	Turn(String node, boolean shared, long session, long epoch, long firstToken, boolean othersQueued,
			LockRegistry registry) {
		this.node = node;
		this.othersQueued = othersQueued;
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

	/**
	 * A read at {@code readNanos}, sent after {@code events} children events, armed the children watch and
	 * found no other JVM waiting, and no event came before its answer was seen.
	 */
	void quietSince(long events, long readNanos) {
		this.quietAt = events;
		this.quietReadNanos = readNanos;
	}

	/**
	 * Whether no other JVM can have queued unseen: no children event since the latest quiet read, which
	 * is recent. Then the hand-off check needs no read: a node another JVM adds fires the watch.
	 */
	boolean quiet(long events, long nowNanos) {
		return this.registry != null && this.quietAt == events
				&& nowNanos - this.quietReadNanos < this.registry.quietForNanos;
	}

	void doubt() {
		this.doubt = true;
	}

	boolean inDoubt() {
		return this.doubt;
	}

}
