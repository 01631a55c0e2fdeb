package dev.zkspring.lock;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.data.Stat;
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

	private static final Log logger = LogFactory.getLog(KeyLock.class);

	final String key;

	final String path;

	final ReentrantReadWriteLock local = new ReentrantReadWriteLock(true);

	/** Threads of this JVM that are waiting for or holding the key; changed only inside the registry's map. */
	volatile int refs;

	private final LockRegistry registry;

	private final CuratorFramework client;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition changed = this.lock.newCondition();

	private final Set<ZkLockContext> holds = ConcurrentHashMap.newKeySet();

	private volatile @Nullable String node;

	private boolean nodeShared;

	private volatile boolean owned;

	private volatile boolean doubt;

	private volatile @Nullable CountDownLatch wake;

	private long turnToken;

	private boolean turnTokenClaimed;

	private int active;

	private int handoffs;

	private boolean draining;

	private boolean driving;

	KeyLock(LockRegistry registry, String key, String path) {
		this.registry = registry;
		this.client = registry.client;
		this.key = key;
		this.path = path;
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
				if (this.node != null && this.owned) {
					if (!this.doubt && (shared || !this.nodeShared) && !this.draining) {
						if (this.handoffs >= this.registry.maxLocalHandoffs) {
							this.draining = anotherJvmWaits();
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
				else if (this.node != null) {
					if (this.driving || this.nodeShared != shared) {
						if (!this.driving && this.active == 0) {
							deleteNode();
						}
						else if (!await(deadline)) {
							return null;
						}
					}
					else {
						Boolean ownership = drive(deadline, tryOnce);
						if (ownership == Boolean.TRUE) {
							return grant(mode);
						}
						if (ownership == Boolean.FALSE) {
							return null;
						}
					}
				}
				else {
					if (tryOnce && anotherHolderBlocks(shared)) {
						return null;
					}
					this.node = createNode(shared);
					this.nodeShared = shared;
					this.owned = false;
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
			if (this.active == 0 && this.node != null && (this.doubt || this.draining || !othersWant)) {
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
			if (this.active == 0 && !this.driving && this.node != null) {
				deleteNode();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The first token of a turn is the key node's pzxid seen when the turn began (free: it came with
	 * the read that confirmed the turn); later holders of the turn get the zxid of a write on the node.
	 */
	long fencingToken(ZkLockContext context) {
		this.lock.lock();
		try {
			String current = this.node;
			if (!this.owned || current == null || context.isLost()) {
				throw new ZkLockUnavailableException(this.key, "Lock '" + this.key + "' is no longer held.", null);
			}
			if (!this.turnTokenClaimed) {
				this.turnTokenClaimed = true;
				return this.turnToken;
			}
			return call(() -> LockNodes.touch(this.client, current));
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The connection was suspended or the session lost: the holds of this key are in doubt.
	 * @return the holds that were active, now marked lost
	 */
	List<ZkLockContext> connectionInterrupted() {
		List<ZkLockContext> lost = new ArrayList<>();
		if (this.owned && this.node != null) {
			this.doubt = true;
			for (ZkLockContext context : this.holds) {
				context.markLost();
				lost.add(context);
			}
		}
		CountDownLatch latch = this.wake;
		if (latch != null) {
			latch.countDown();
		}
		return lost;
	}

	private ZkLockContext grant(ZkLock.Mode mode) {
		this.active++;
		ZkLockContext context = new ZkLockContext(this.key, this.path, mode, this);
		this.holds.add(context);
		if (this.doubt) {
			context.markLost();
		}
		return context;
	}

	/**
	 * Wait until our node heads the queue for its mode. The node stays when the deadline passes, so
	 * another local thread can go on waiting with it.
	 * @return true when the turn began, false at the deadline, null when the node is gone
	 */
	private @Nullable Boolean drive(long deadline, boolean tryOnce) throws InterruptedException {
		String ours = this.node;
		String name = ZKPaths.getNodeFromPath(ours);
		this.driving = true;
		try {
			while (true) {
				Stat stat = new Stat();
				List<String> children = call(() -> LockNodes.children(this.client, this.path, stat));
				if (children == null || !children.contains(name)) {
					this.node = null;
					return null;
				}
				call(() -> {
					LockNodes.deleteStrays(this.client, this.path, children, this.registry.jvmPrefix, name);
					return null;
				});
				String blocker = LockNodes.blocker(children, name, this.nodeShared);
				if (blocker == null) {
					beginTurn(stat.getPzxid());
					return true;
				}
				if (tryOnce) {
					return false;
				}
				CountDownLatch latch = new CountDownLatch(1);
				this.wake = latch;
				String blockerPath = ZKPaths.makePath(this.path, blocker);
				if (!call(() -> LockNodes.watch(this.client, blockerPath, (event) -> latch.countDown()))) {
					continue;
				}
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					return false;
				}
				this.lock.unlock();
				try {
					latch.await(remaining, TimeUnit.NANOSECONDS);
					this.registry.awaitConnected(this.key, deadline);
				}
				finally {
					this.lock.lock();
				}
			}
		}
		finally {
			this.driving = false;
			this.wake = null;
			this.changed.signalAll();
		}
	}

	private void beginTurn(long pzxid) {
		this.owned = true;
		this.doubt = false;
		this.draining = false;
		this.handoffs = 0;
		this.turnToken = pzxid;
		this.turnTokenClaimed = false;
	}

	private String createNode(boolean shared) {
		String attempt = this.registry.nextAttempt();
		try {
			return LockNodes.create(this.client, this.path, attempt, shared);
		}
		catch (Exception ex) {
			try {
				LockNodes.deleteAttemptInBackground(this.client, this.path, attempt);
			}
			catch (Exception cleanup) {
				logger.debug("Could not look for nodes left by a failed create under " + this.path + ": " + cleanup);
			}
			throw (ex instanceof RuntimeException runtime) ? runtime : this.registry.unavailable(this.key, ex);
		}
	}

	private boolean anotherJvmWaits() {
		String ours = this.node;
		List<String> children = call(() -> LockNodes.children(this.client, this.path, null));
		return children != null && LockNodes.anyConflicting(children,
				(ours != null) ? ZKPaths.getNodeFromPath(ours) : null, this.nodeShared);
	}

	private boolean anotherHolderBlocks(boolean shared) {
		List<String> children = call(() -> LockNodes.children(this.client, this.path, null));
		return children != null && LockNodes.anyConflicting(children, null, shared);
	}

	private void deleteNode() {
		String current = this.node;
		this.node = null;
		this.owned = false;
		this.doubt = false;
		this.draining = false;
		this.handoffs = 0;
		this.changed.signalAll();
		if (current != null) {
			try {
				LockNodes.delete(this.client, current);
			}
			catch (Exception ex) {
				logger.debug("Lock node " + current + " will be deleted in the background: " + ex);
			}
		}
	}

	private boolean await(long deadline) throws InterruptedException {
		long remaining = deadline - System.nanoTime();
		return remaining > 0 && this.changed.awaitNanos(remaining) > 0;
	}

	private <T> T call(ZkCall<T> call) {
		try {
			return call.call();
		}
		catch (RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw this.registry.unavailable(this.key, ex);
		}
	}

	@FunctionalInterface
	private interface ZkCall<T> {

		T call() throws Exception;

	}

}
