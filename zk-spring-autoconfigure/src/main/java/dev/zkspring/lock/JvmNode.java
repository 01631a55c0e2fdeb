package dev.zkspring.lock;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zkspring.client.SessionLease;

/**
 * The ZooKeeper requests of this JVM for one key. Called <em>without</em> the key's lock (one thread
 * at a time for the requests that change the queue, see {@link KeyLock}), so no request ever delays a
 * thread that only wants to know whether it may enter.
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

	private final SessionLease lease;

	private final String key;

	private final String path;

	/** Set on the read that confirms a turn: tells when a child (ours, too) goes. */
	private final Watcher childrenWatch;

	private volatile @Nullable CountDownLatch wake;

	JvmNode(LockRegistry registry, String key, String path, Watcher childrenWatch) {
		this.registry = registry;
		this.client = registry.client;
		this.lease = registry.lease;
		this.key = key;
		this.path = path;
		this.childrenWatch = childrenWatch;
	}

	/** A round trip that tells whether another holder would make a holder of this kind wait. */
	boolean anotherHolderBlocks(boolean shared) {
		List<String> children = call(() -> LockNodes.children(this.client, this.path, null, null));
		return children != null && LockNodes.anyConflicting(children, null, shared);
	}

	/** A round trip that tells whether another JVM waits behind our node. */
	boolean anotherJvmWaits(String ours, boolean shared) {
		List<String> children = call(() -> LockNodes.children(this.client, this.path, null, null));
		return children != null && LockNodes.anyConflicting(children, ZKPaths.getNodeFromPath(ours), shared);
	}

	String create(boolean shared) {
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

	/**
	 * Wait until our node heads the queue for its mode. The node stays when the deadline passes, so
	 * another local thread can go on waiting with it.
	 * @return the turn, {@link Turn#BUSY} at the deadline, or {@code null} when the node is gone
	 */
	@Nullable Turn awaitTurn(String node, boolean shared, long deadline, boolean tryOnce) throws InterruptedException {
		String name = ZKPaths.getNodeFromPath(node);
		try {
			while (true) {
				long epoch = this.registry.epoch();
				SessionLease.Stamp stamp = this.lease.beforeRequest();
				Stat stat = new Stat();
				List<String> children = call(() -> LockNodes.children(this.client, this.path, stat, this.childrenWatch));
				this.lease.replied(stamp);
				if (children == null || !children.contains(name)) {
					return null;
				}
				call(() -> {
					LockNodes.deleteStrays(this.client, this.path, children, this.registry.jvmPrefix, name);
					return null;
				});
				String blocker = LockNodes.blocker(children, name, shared);
				if (blocker == null) {
					this.registry.hooks.confirmed(this.key);
					return new Turn(node, shared, stamp.session(), epoch, stat.getPzxid(), this.registry);
				}
				if (tryOnce) {
					return Turn.BUSY;
				}
				CountDownLatch latch = new CountDownLatch(1);
				this.wake = latch;
				String blockerPath = ZKPaths.makePath(this.path, blocker);
				if (!call(() -> LockNodes.watch(this.client, blockerPath, (event) -> latch.countDown()))) {
					continue;
				}
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					return Turn.BUSY;
				}
				latch.await(remaining, TimeUnit.NANOSECONDS);
				this.registry.awaitConnected(this.key, deadline);
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

	/** A fresh fencing token: one write on our node. */
	long touch(String node) {
		try {
			return LockNodes.touch(this.client, node);
		}
		catch (KeeperException.NoNodeException ex) {
			throw new ZkLockLostException(this.key, "Lock '" + this.key + "' is no longer held: its node " + node
					+ " is gone.", ex);
		}
		catch (Exception ex) {
			throw this.registry.unavailable(this.key, ex);
		}
	}

	/** Read the children again in the background (re-arming the watch) and tell whether ours is there. */
	void checkInBackground(String node, Consumer<Boolean> present) {
		String name = ZKPaths.getNodeFromPath(node);
		try {
			this.client.getChildren().usingWatcher(this.childrenWatch).inBackground((client, event) -> {
				int rc = event.getResultCode();
				if (rc == KeeperException.Code.NONODE.intValue()) {
					present.accept(false);
				}
				else if (rc == KeeperException.Code.OK.intValue()) {
					present.accept(event.getChildren().contains(name));
				}
			}).forPath(this.path);
		}
		catch (Exception ex) {
			logger.debug("Could not check lock node " + node + ": " + ex);
		}
	}

	void delete(@Nullable String node) {
		if (node != null) {
			try {
				LockNodes.delete(this.client, node);
			}
			catch (Exception ex) {
				logger.debug("Lock node " + node + " will be deleted in the background: " + ex);
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
