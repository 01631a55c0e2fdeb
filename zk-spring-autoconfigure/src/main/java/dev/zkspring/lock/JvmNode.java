package dev.zkspring.lock;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * This JVM's one ZooKeeper node for a key, and its turn: from the node heading the queue for its mode
 * to its deletion. Every method is called holding the key's lock.
 * <p>
 * Fencing: a turn's first token is the key node's pzxid seen by the read that confirmed the turn. It is
 * at least the zxid of the deletion that ended the previous turn (of any JVM), so it is larger than
 * every token given before, and it came with that read. Later tokens of the turn are the zxids of
 * writes on our node, each larger than everything before it.
 */
final class JvmNode {

	private static final Log logger = LogFactory.getLog(JvmNode.class);

	private final LockRegistry registry;

	private final CuratorFramework client;

	private final String key;

	private final String path;

	private final ReentrantLock lock;

	private volatile @Nullable String node;

	private boolean shared;

	private volatile boolean owned;

	private long turnToken;

	private boolean turnTokenClaimed;

	private volatile @Nullable CountDownLatch wake;

	JvmNode(LockRegistry registry, String key, String path, ReentrantLock lock) {
		this.registry = registry;
		this.client = registry.client;
		this.key = key;
		this.path = path;
		this.lock = lock;
	}

	boolean exists() {
		return this.node != null;
	}

	boolean isOwned() {
		return this.owned && this.node != null;
	}

	/** Whether the node serves holders of the given kind: an exclusive node serves readers too. */
	boolean serves(boolean shared) {
		return shared || !this.shared;
	}

	boolean isShared() {
		return this.shared;
	}

	/** A round trip that tells whether another holder would make a holder of this kind wait. */
	boolean anotherHolderBlocks(boolean shared) {
		List<String> children = call(() -> LockNodes.children(this.client, this.path, null));
		return children != null && LockNodes.anyConflicting(children, null, shared);
	}

	/** A round trip that tells whether another JVM waits behind our node. */
	boolean anotherJvmWaits() {
		String ours = this.node;
		List<String> children = call(() -> LockNodes.children(this.client, this.path, null));
		return children != null
				&& LockNodes.anyConflicting(children, (ours != null) ? ZKPaths.getNodeFromPath(ours) : null, this.shared);
	}

	void create(boolean shared) {
		String attempt = this.registry.nextAttempt();
		try {
			this.node = LockNodes.create(this.client, this.path, attempt, shared);
			this.shared = shared;
			this.owned = false;
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

	/**
	 * Wait until our node heads the queue for its mode, releasing the key's lock while waiting. The node
	 * stays when the deadline passes, so another local thread can go on waiting with it.
	 * @return true when the turn began, false at the deadline, null when the node is gone
	 */
	@Nullable Boolean awaitTurn(long deadline, boolean tryOnce) throws InterruptedException {
		String name = ZKPaths.getNodeFromPath(this.node);
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
				String blocker = LockNodes.blocker(children, name, this.shared);
				if (blocker == null) {
					this.owned = true;
					this.turnToken = stat.getPzxid();
					this.turnTokenClaimed = false;
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
			this.wake = null;
		}
	}

	/** Wake a thread waiting for its turn, so it notices a connection problem at once. */
	void wake() {
		CountDownLatch latch = this.wake;
		if (latch != null) {
			latch.countDown();
		}
	}

	long fencingToken() {
		String current = this.node;
		if (!this.owned || current == null) {
			throw new ZkLockUnavailableException(this.key, "Lock '" + this.key + "' is no longer held.", null);
		}
		if (!this.turnTokenClaimed) {
			this.turnTokenClaimed = true;
			return this.turnToken;
		}
		return call(() -> LockNodes.touch(this.client, current));
	}

	void delete() {
		String current = this.node;
		this.node = null;
		this.owned = false;
		if (current != null) {
			try {
				LockNodes.delete(this.client, current);
			}
			catch (Exception ex) {
				logger.debug("Lock node " + current + " will be deleted in the background: " + ex);
			}
		}
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
