package dev.zkspring.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

/**
 * One key in this JVM: a fair local read-write lock that queues this JVM's threads (FIFO), and the
 * JVM's single ZooKeeper node for the key, shared by the local holders of one {@link Turn}.
 * <p>
 * A thread first gets the local lock, then {@link #enter} makes sure the JVM's node holds the key in a
 * compatible mode. When a holder leaves and another local thread wants the key, the node is kept and
 * handed over without touching ZooKeeper, but only while the turn is {@linkplain Turn#valid() valid}
 * (its session's lease holds and nothing put it in doubt); otherwise the node is given up and the thread
 * queues again. After {@code maxLocalHandoffs} hand-offs the JVM checks for a waiting JVM and, if there is
 * one, gives the node up and queues again behind it. The check is free while the key's children watch has
 * stayed silent since a recent read found no other JVM (another JVM's node would have fired it), else one read.
 * <p>
 * {@link #lock} guards the state and is held only for decisions, never across a ZooKeeper request: one
 * thread at a time runs the requests that change the queue ({@link #io}), the others wait on
 * {@link #changed} until their deadline.
 * <p>
 * Over 300 lines because it is one state machine: the local queue, the JVM's node, the turn and its hand-
 * offs change together under one lock, and the request that changes the queue runs outside it; split, each
 * part would reach into the others' state and the reasoning about that lock would be spread over files.
 */
final class KeyLock {

	/** The shortest wait for the (briefly held) state lock, so a zero wait does not fail spuriously. */
	private static final long STATE_LOCK_FLOOR = TimeUnit.MILLISECONDS.toNanos(20);

	final String key;

	final String path;

	final ReentrantReadWriteLock local = new ReentrantReadWriteLock(true);

	/** Threads of this JVM that are waiting for or holding the key; changed only inside the registry's map. */
	volatile int refs;

	final LockRegistry registry;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final JvmNode node;

	private final Set<ZkLockContext> holds = ConcurrentHashMap.newKeySet();

	/** Our node, waiting in the queue or holding the key. */
	private @Nullable String queued;

	private boolean queuedShared;

	/** Set while our node holds the key; read without the lock by the loss handlers. */
	private volatile @Nullable Turn turn;

	private int active;

	private int handoffs;

	/** The next holder may enter without a check: the turn's first one, or one right after a check found no waiting JVM. */
	private boolean mayEnter;

	private boolean draining;

	/** A thread is running a request that changes the queue, without the lock. */
	private boolean io;

	/**
	 * Children events seen so far. The children watch is one-shot: one that fires before the turn is
	 * recorded finds no turn to check, so {@link #startTurn} checks when the count moved meanwhile.
	 */
	private final AtomicLong childEvents = new AtomicLong();

	KeyLock(LockRegistry registry, String key, String path) {
		this.registry = registry;
		this.key = key;
		this.path = path;
		Watcher childrenWatch = (event) -> {
			if (event.getType() != Watcher.Event.EventType.None) {
				this.childEvents.incrementAndGet();
				checkOwnNode();
			}
		};
		this.node = new JvmNode(registry, key, path, childrenWatch);
	}

	/**
	 * Join or start this JVM's turn on the key; the caller holds the matching local lock.
	 * @return the new hold, or {@code null} when the key stayed busy until the deadline
	 */
	@Nullable ZkLockContext enter(ZkLock.Mode mode, long deadline, boolean tryOnce) throws InterruptedException {
		boolean shared = mode.isShared();
		if (!this.lock.tryLock(Math.max(deadline - System.nanoTime(), STATE_LOCK_FLOOR), TimeUnit.NANOSECONDS)) {
			return null;
		}
		try {
			while (true) {
				Turn turn = this.turn;
				if (turn != null) {
					if (turn.admits(shared) && !this.draining) {
						if (this.handoffs < this.registry.maxLocalHandoffs || this.mayEnter) {
							this.handoffs++;
							this.mayEnter = false;
							ZkLockContext context = grant(mode, turn);
							if (context != null) {
								return context;
							}
						}
						else if (!this.io) {
							checkForWaitingJvm(turn);
						}
						else if (!await(deadline)) {
							return null;
						}
					}
					else if (this.active == 0 && !this.io) {
						deleteOutside(endTurn());
					}
					else if (!await(deadline)) {
						return null;
					}
				}
				else if (this.io) {
					if (!await(deadline)) {
						return null;
					}
				}
				else if (this.queued != null) {
					if (this.queuedShared != shared) {
						deleteOutside(endTurn());
					}
					else if (drive(this.queued, shared, deadline, tryOnce) == Turn.BUSY) {
						return null;
					}
				}
				else {
					this.registry.checkConnected(this.key);
					if (tryOnce && outside(() -> this.node.anotherHolderBlocks(shared))) {
						return null;
					}
					if (this.queued == null && this.turn == null && !this.io) {
						long events = this.childEvents.get();
						JvmNode.Created created = outside(() -> this.node.createAndConfirm(shared));
						this.queued = created.node();
						this.queuedShared = shared;
						if (created.turn() != null) {
							startTurn(created.turn(), events);
						}
					}
				}
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/** A holder leaves; the node stays for the next local thread when one wants the key and may have it. */
	void leave(ZkLockContext context, boolean othersWant) {
		String stale = null;
		this.lock.lock();
		try {
			this.holds.remove(context);
			this.active--;
			Turn turn = this.turn;
			if (this.active == 0 && turn != null && !this.io && (this.draining || !othersWant || !turn.valid())) {
				stale = endTurn();
			}
			this.changed.signalAll();
			deleteOutside(stale);
		}
		finally {
			this.lock.unlock();
		}
	}

	/** No thread of this JVM wants the key any more: give its node up. */
	void releaseIfIdle() {
		String stale = null;
		this.lock.lock();
		try {
			if (this.active == 0 && !this.io) {
				stale = endTurn();
			}
			deleteOutside(stale);
		}
		finally {
			this.lock.unlock();
		}
	}

	long fencingToken(ZkLockContext context) {
		Turn turn = context.turn;
		this.lock.lock();
		try {
			context.assertHeld();
			if (!turn.firstTokenClaimed) {
				turn.firstTokenClaimed = true;
				return turn.firstToken;
			}
		}
		finally {
			this.lock.unlock();
		}
		return this.node.touch(turn.node);
	}

	/**
	 * The connection was suspended, the session lost or the lease lapsed: the turn is in doubt. Called
	 * without the key's lock, never waits; the registry counted the interruption before, so a turn
	 * confirmed meanwhile is in doubt too ({@link Turn#valid()}).
	 * @return the holds that were active and are now marked lost
	 */
	List<ZkLockContext> putInDoubt() {
		Turn turn = this.turn;
		if (turn != null) {
			turn.doubt();
		}
		List<ZkLockContext> lost = new ArrayList<>();
		for (ZkLockContext context : this.holds) {
			if (context.markLost()) {
				lost.add(context);
			}
		}
		this.node.wake();
		return lost;
	}

	/** The active holds of this key, for the read-only view of held locks. */
	List<ZkLockContext> holds() {
		return List.copyOf(this.holds);
	}

	/**
	 * The fairness check after {@code maxLocalHandoffs} hand-offs: free while the children watch stayed
	 * silent since a recent read that found no other JVM waiting ({@link Turn#quiet}), else one read,
	 * which arms the watch again. Called with the lock held.
	 */
	private void checkForWaitingJvm(Turn turn) throws InterruptedException {
		long events = this.childEvents.get();
		long sent = System.nanoTime();
		if (this.registry.maxLocalHandoffs > 0 && turn.quiet(events, sent)) {
			this.handoffs = 0;
			return;
		}
		boolean waits = outside(() -> this.node.anotherJvmWaits(turn.node, turn.shared));
		if (this.turn == turn) {
			this.draining = waits;
			this.handoffs = 0;
			this.mayEnter = !waits;
			if (!waits && this.childEvents.get() == events) {
				turn.quietSince(events, sent);
			}
		}
	}

	/** Our node may have been deleted by someone else: look (in the background) while the turn lasts. */
	private void checkOwnNode() {
		Turn turn = this.turn;
		if (turn != null && !turn.inDoubt()) {
			this.node.checkInBackground(turn.node, (present) -> {
				if (!present && this.turn == turn && !turn.inDoubt()) {
					turn.doubt();
					this.registry.nodeDeleted(this);
				}
			});
		}
	}

	private @Nullable ZkLockContext grant(ZkLock.Mode mode, Turn turn) {
		this.registry.hooks.admitting(this.key);
		this.active++;
		ZkLockContext context = new ZkLockContext(this.key, this.path, mode, this, turn);
		this.holds.add(context);
		// loss handlers count the interruption, then mark the holds: one of us sees the other
		if (!turn.valid()) {
			this.holds.remove(context);
			this.active--;
			turn.doubt();
			return null;
		}
		return context;
	}

	private @Nullable Turn drive(String queued, boolean shared, long deadline, boolean tryOnce) throws InterruptedException {
		long events = this.childEvents.get();
		Turn turn = outside(() -> this.node.awaitTurn(queued, shared, deadline, tryOnce));
		if (turn == null) {
			if (this.queued == queued) {
				this.queued = null;
			}
			return null;
		}
		if (turn != Turn.BUSY && this.queued == queued) {
			startTurn(turn, events);
		}
		return turn;
	}

	/**
	 * Record the turn; when the children watch fired since {@code eventsBefore} (read before the request
	 * that armed it), the event found no turn and did not re-arm it: check now, which re-arms it.
	 */
	private void startTurn(Turn turn, long eventsBefore) {
		this.turn = turn;
		this.draining = false;
		this.handoffs = 0;
		this.mayEnter = true;
		if (this.childEvents.get() != eventsBefore) {
			checkOwnNode();
		}
		else if (!turn.othersQueued) {
			turn.quietSince(eventsBefore, System.nanoTime());
		}
	}

	/** Forget our node (the caller deletes it, outside the lock) and end the turn. */
	private @Nullable String endTurn() {
		String stale = this.queued;
		this.queued = null;
		this.turn = null;
		this.draining = false;
		this.handoffs = 0;
		this.mayEnter = false;
		this.changed.signalAll();
		return stale;
	}

	/**
	 * Send the delete of our node without the lock, and without waiting for it. Other threads of this
	 * JVM wait ({@link #io}) until it is sent, so whatever they ask next reaches ZooKeeper after it.
	 */
	private void deleteOutside(@Nullable String stale) {
		if (stale == null) {
			return;
		}
		this.io = true;
		this.lock.unlock();
		try {
			this.registry.hooks.deleting(this.key);
			this.node.deleteInBackground(stale);
		}
		finally {
			this.lock.lock();
			this.io = false;
			this.changed.signalAll();
		}
	}

	/** Run a request without the lock, keeping other threads from starting one meanwhile. */
	private <T> T outside(Request<T> request) throws InterruptedException {
		this.io = true;
		this.lock.unlock();
		try {
			return request.run();
		}
		finally {
			this.lock.lock();
			this.io = false;
			this.changed.signalAll();
		}
	}

	private boolean await(long deadline) throws InterruptedException {
		long remaining = deadline - System.nanoTime();
		return remaining > 0 && this.changed.awaitNanos(remaining) > 0;
	}

	@FunctionalInterface
	private interface Request<T> {

		T run() throws InterruptedException;

	}

}
