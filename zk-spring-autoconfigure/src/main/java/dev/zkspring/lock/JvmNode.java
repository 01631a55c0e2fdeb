package dev.zkspring.lock;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
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

import dev.zkspring.client.PeerWatch;
import dev.zkspring.client.SessionLease;

/**
 * The ZooKeeper requests of this JVM for one key. Called <em>without</em> the key's lock (one thread
 * at a time for the requests that change the queue, see {@link KeyLock}), so no request ever delays a
 * thread that only wants to know whether it may enter. A session's requests run in the order they were
 * sent, so an acquire sends the create and the read of the children back to back (one round trip when
 * uncontended), and a release only sends the delete.
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
		List<String> children = call("holders", () -> LockNodes.children(this.client, this.path, null, null));
		return children != null && LockNodes.anyConflicting(children, null, shared);
	}

	/** A round trip that tells whether another JVM waits behind our node; it arms the children watch. */
	boolean anotherJvmWaits(String ours, boolean shared) {
		List<String> children = call("waiters",
				() -> LockNodes.children(this.client, this.path, null, this.childrenWatch));
		return children != null && LockNodes.anyConflicting(children, ZKPaths.getNodeFromPath(ours), shared);
	}

	/**
	 * Create our node and read the key's children right behind it, without waiting in between: a
	 * session's requests run in the order they were sent, so the read sees the node, and an uncontended
	 * acquire costs one round trip. The read also confirms the turn when our node heads the queue.
	 * @return our node, with its turn when the read confirmed one
	 */
	Created createAndConfirm(boolean shared) {
		String attempt = this.registry.nextAttempt();
		long epoch = this.registry.epoch();
		CompletableFuture<String> created = new CompletableFuture<>();
		try {
			this.registry.hooks.sending(this.key, "create");
			LockNodes.createInBackground(this.client, this.path, attempt, shared, created);
		}
		catch (Exception ex) {
			throw failedCreate(attempt, ex);
		}
		SessionLease.Stamp stamp = this.lease.beforeRequest();
		Stat stat = new Stat();
		List<String> children = null;
		try {
			this.registry.hooks.sending(this.key, "children behind the create");
			children = LockNodes.children(this.client, this.path, stat, this.childrenWatch);
			this.lease.replied(stamp);
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				// Curator restores the flag too; the wait for the create below then reports the interruption
				Thread.currentThread().interrupt();
			}
			logger.debug("Reading " + this.path + " behind the create failed; waiting for the create: " + ex);
		}
		String name = (children != null) ? LockNodes.ofAttempt(children, attempt) : null;
		if (name == null) {
			// the key node was missing (the create makes it first) or the read failed: learn the create's outcome
			return new Created(awaitCreated(created, attempt), null);
		}
		String node = ZKPaths.makePath(this.path, name);
		try {
			return new Created(node, confirm(node, name, shared, children, stat, stamp, epoch));
		}
		catch (RuntimeException ex) {
			deleteInBackground(node);
			throw ex;
		}
	}

	/** Our node, and its turn when the read behind the create confirmed one. */
	record Created(String node, @Nullable Turn turn) {
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
				List<String> children = call("children",
						() -> LockNodes.children(this.client, this.path, stat, this.childrenWatch));
				this.lease.replied(stamp);
				if (children == null || !children.contains(name)) {
					return null;
				}
				Turn turn = confirm(node, name, shared, children, stat, stamp, epoch);
				if (turn != null) {
					return turn;
				}
				String blocker = LockNodes.blocker(children, name, shared);
				if (tryOnce) {
					return Turn.BUSY;
				}
				CountDownLatch latch = new CountDownLatch(1);
				this.wake = latch;
				String blockerPath = ZKPaths.makePath(this.path, blocker);
				Stat blockerStat = call("blocker watch",
						() -> LockNodes.watch(this.client, blockerPath, (event) -> latch.countDown()));
				if (blockerStat == null || (blockerStat.getEphemeralOwner() == 0
						&& call("planted", () -> LockNodes.removePlanted(this.client, blockerPath, this.key)))) {
					continue;
				}
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					return Turn.BUSY;
				}
				try (PeerWatch.Watching holder = this.registry.peers.watch(blockerPath, blockerStat.getEphemeralOwner())) {
					latch.await(remaining, TimeUnit.NANOSECONDS);
				}
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

	/**
	 * Send the delete of our node and return at once; it reaches ZooKeeper before any later request of
	 * this session. A failed delete is retried by Curator (guaranteed), or goes with the session.
	 */
	void deleteInBackground(String node) {
		try {
			LockNodes.deleteInBackground(this.client, node);
		}
		catch (Exception ex) {
			logger.debug("Lock node " + node + " is left to its session: " + ex);
		}
	}

	/** After reading the children: delete our strays, and make a turn when our node heads the queue. */
	private @Nullable Turn confirm(String node, String name, boolean shared, List<String> children, Stat stat,
			SessionLease.Stamp stamp, long epoch) {
		call("strays", () -> {
			LockNodes.deleteStrays(this.client, this.path, children, this.registry.jvmPrefix, name);
			return null;
		});
		if (LockNodes.blocker(children, name, shared) != null) {
			return null;
		}
		this.registry.hooks.confirmed(this.key);
		return new Turn(node, shared, stamp.session(), epoch, stat.getPzxid(),
				LockNodes.anyConflicting(children, name, shared), this.registry);
	}

	private String awaitCreated(CompletableFuture<String> created, String attempt) {
		try {
			return ZKPaths.makePath(this.path, ZKPaths.getNodeFromPath(created.get()));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			// the node may still come: delete it when it does
			created.thenAccept(this::deleteInBackground);
			throw new ZkLockInterruptedException(this.key, ex);
		}
		catch (ExecutionException ex) {
			throw failedCreate(attempt, (ex.getCause() instanceof Exception cause) ? cause : ex);
		}
	}

	private RuntimeException failedCreate(String attempt, Exception ex) {
		try {
			LockNodes.deleteAttemptInBackground(this.client, this.path, attempt);
		}
		catch (Exception cleanup) {
			logger.debug("Could not look for nodes left by a failed create under " + this.path + ": " + cleanup);
		}
		return this.registry.failure(this.key, ex);
	}

	/** A synchronous request of an acquisition, named for the test hook. */
	private <T> T call(String request, ZkCall<T> call) {
		try {
			this.registry.hooks.sending(this.key, request);
			return call.call();
		}
		catch (Exception ex) {
			throw this.registry.failure(this.key, ex);
		}
	}

	@FunctionalInterface
	private interface ZkCall<T> {

		T call() throws Exception;

	}

}
