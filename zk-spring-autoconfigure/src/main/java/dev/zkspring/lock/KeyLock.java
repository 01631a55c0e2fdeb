package dev.zkspring.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.jspecify.annotations.Nullable;

/**
 * One key in this JVM: a fair local read-write lock that queues this JVM's threads (FIFO), and the
 * JVM's single ZooKeeper node for the key, shared by the local holders of one turn.
 * <p>
 * A thread first gets the local lock, then {@link #enter} makes sure the JVM's node holds the key in
 * a compatible mode. When a holder leaves and another local thread wants the key, the node is kept
 * and handed over without touching ZooKeeper, but after {@code maxLocalHandoffs} hand-offs the JVM
 * checks (one read) for a waiting JVM and, if there is one, gives the node up and queues again behind it.
 */
final class KeyLock {

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

	private volatile boolean doubt;

	private int active;

	private int handoffs;

	private boolean draining;

	private boolean driving;

	KeyLock(LockRegistry registry, String key, String path) {
		this.registry = registry;
		this.key = key;
		this.path = path;
		this.node = new JvmNode(registry, key, path, this.lock);
	}

	/**
	 * Join or start this JVM's turn on the key; the caller holds the matching local lock.
	 * @return the new hold, or {@code null} when the key stayed busy until the deadline
	 */
	@Nullable ZkLockContext enter(ZkLock.Mode mode, long deadline, boolean tryOnce) throws InterruptedException {
		boolean shared = mode.isShared();
		this.lock.lockInterruptibly();
		try {
			while (true) {
				this.registry.checkConnected(this.key);
				if (this.node.isOwned()) {
					if (!this.doubt && this.node.serves(shared) && !this.draining) {
						if (this.handoffs >= this.registry.maxLocalHandoffs) {
							this.draining = this.node.anotherJvmWaits();
							this.handoffs = 0;
						}
						if (!this.draining) {
							this.handoffs++;
							return grant(mode);
						}
					}
					if (this.active == 0) {
						deleteNode();
					}
					else if (!await(deadline)) {
						return null;
					}
				}
				else if (this.node.exists()) {
					if (!this.driving && this.node.isShared() == shared) {
						Boolean turn = drive(deadline, tryOnce);
						if (turn != null) {
							return turn ? grant(mode) : null;
						}
					}
					else if (!this.driving) {
						deleteNode();
					}
					else if (!await(deadline)) {
						return null;
					}
				}
				else if (tryOnce && this.node.anotherHolderBlocks(shared)) {
					return null;
				}
				else {
					this.node.create(shared);
				}
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/** A holder leaves; the node stays for the next local thread when one wants the key. */
	void leave(ZkLockContext context, boolean othersWant) {
		this.lock.lock();
		try {
			this.holds.remove(context);
			this.active--;
			if (this.active == 0 && this.node.exists() && (this.doubt || this.draining || !othersWant)) {
				deleteNode();
			}
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
	}

	/** No thread of this JVM wants the key any more: give its node up. */
	void releaseIfIdle() {
		this.lock.lock();
		try {
			if (this.active == 0 && !this.driving && this.node.exists()) {
				deleteNode();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	long fencingToken(ZkLockContext context) {
		this.lock.lock();
		try {
			if (context.isLost()) {
				throw new ZkLockUnavailableException(this.key, "Lock '" + this.key + "' is no longer held.", null);
			}
			return this.node.fencingToken();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The connection was suspended or the session lost: the holds of this key are in doubt. Called on
	 * Curator's connection-state thread, without the key's lock.
	 * @return the holds that were active, now marked lost
	 */
	List<ZkLockContext> connectionInterrupted() {
		List<ZkLockContext> lost = new ArrayList<>();
		if (this.node.isOwned()) {
			this.doubt = true;
			for (ZkLockContext context : this.holds) {
				context.markLost();
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

	private ZkLockContext grant(ZkLock.Mode mode) {
		this.active++;
		ZkLockContext context = new ZkLockContext(this.key, this.path, mode, this);
		this.holds.add(context);
		// the connection listener sets doubt before it marks the holds: one of us sees the other
		if (this.doubt) {
			context.markLost();
		}
		return context;
	}

	private @Nullable Boolean drive(long deadline, boolean tryOnce) throws InterruptedException {
		this.driving = true;
		try {
			Boolean turn = this.node.awaitTurn(deadline, tryOnce);
			if (turn == Boolean.TRUE) {
				this.doubt = false;
				this.draining = false;
				this.handoffs = 0;
			}
			return turn;
		}
		finally {
			this.driving = false;
			this.changed.signalAll();
		}
	}

	private void deleteNode() {
		this.node.delete();
		this.doubt = false;
		this.draining = false;
		this.handoffs = 0;
		this.changed.signalAll();
	}

	private boolean await(long deadline) throws InterruptedException {
		long remaining = deadline - System.nanoTime();
		return remaining > 0 && this.changed.awaitNanos(remaining) > 0;
	}

}
