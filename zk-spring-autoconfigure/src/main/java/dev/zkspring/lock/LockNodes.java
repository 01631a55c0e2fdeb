package dev.zkspring.lock;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zkspring.client.OwnedPaths;

/**
 * The ZooKeeper side of a key: ephemeral sequential children of the key's container node, named
 * {@code ...X<seq>} for exclusive and {@code ...R<seq>} for shared holders, in the order of their
 * sequence numbers. Stateless; every method is at most one round trip, and the background ones wait for none.
 */
final class LockNodes {

	private static final Log logger = LogFactory.getLog(LockNodes.class);

	private static final byte[] EMPTY = new byte[0];

	private static final int SEQUENCE_LENGTH = 10;

	static final Comparator<String> BY_SEQUENCE = Comparator.comparing(LockNodes::sequence);

	private LockNodes() {
	}

	/**
	 * Send the create of this JVM's node (with the container parents if they are missing) and return
	 * without waiting; {@code created} completes with its path. The name starts with a prefix unique to
	 * this attempt, so the node can be found among the children, and so can nodes a failed or retried
	 * attempt may have left.
	 */
	static void createInBackground(CuratorFramework client, String path, String attempt, boolean shared,
			CompletableFuture<String> created) throws Exception {
		OwnedPaths.ensure(client, ZKPaths.getPathAndNode(path).getPath());
		client.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground((curator, event) -> {
				KeeperException.Code code = KeeperException.Code.get(event.getResultCode());
				if (code == KeeperException.Code.OK) {
					created.complete(event.getName());
				}
				else {
					created.completeExceptionally(KeeperException.create(code, event.getPath()));
				}
			})
			.forPath(path + "/" + attempt + (shared ? "R" : "X"), EMPTY);
	}

	/** The child an attempt created, or {@code null} when it is not (yet) there. */
	static @Nullable String ofAttempt(List<String> children, String attempt) {
		for (String child : children) {
			if (child.startsWith(attempt)) {
				return child;
			}
		}
		return null;
	}

	/**
	 * Delete the nodes of this JVM other than its current one: left by a create that Curator retried
	 * after a lost connection, they would otherwise block every JVM until the session ends.
	 */
	static void deleteStrays(CuratorFramework client, String path, List<String> children, String jvmPrefix,
			String ours) throws Exception {
		for (String child : children) {
			if (child.startsWith(jvmPrefix) && !child.equals(ours)) {
				delete(client, path + "/" + child);
			}
		}
	}

	/** After a failed create: find (in the background) and delete what the attempt may have created. */
	static void deleteAttemptInBackground(CuratorFramework client, String path, String attempt) throws Exception {
		client.getChildren().inBackground((curator, event) -> {
			if (event.getChildren() != null) {
				for (String child : event.getChildren()) {
					if (child.startsWith(attempt)) {
						delete(curator, path + "/" + child);
					}
				}
			}
		}).forPath(path);
	}

	/**
	 * The children of the key, with the key node's stat and a watch on the children when asked for;
	 * {@code null} when the key node does not exist.
	 */
	static @Nullable List<String> children(CuratorFramework client, String path, @Nullable Stat stat,
			@Nullable Watcher watcher) throws Exception {
		try {
			if (stat != null && watcher != null) {
				return client.getChildren().storingStatIn(stat).usingWatcher(watcher).forPath(path);
			}
			return (stat != null) ? client.getChildren().storingStatIn(stat).forPath(path)
					: client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	/** The node our node waits for, or {@code null} when our node holds the lock. */
	static @Nullable String blocker(List<String> children, String ours, boolean shared) {
		List<String> sorted = children.stream().sorted(BY_SEQUENCE).toList();
		String blocker = null;
		for (String child : sorted) {
			if (child.equals(ours)) {
				return blocker;
			}
			if (!shared || isExclusive(child)) {
				blocker = child;
			}
		}
		throw new IllegalStateException("node " + ours + " is not among the children");
	}

	/** Whether any node other than ours would make a holder of the given kind wait. */
	static boolean anyConflicting(List<String> children, @Nullable String ours, boolean shared) {
		for (String child : children) {
			if (!child.equals(ours) && (!shared || isExclusive(child))) {
				return true;
			}
		}
		return false;
	}

	/** Watch a node; its stat, or {@code null} when it is gone already, so there is nothing to wait for. */
	static @Nullable Stat watch(CuratorFramework client, String node, Watcher watcher) throws Exception {
		try {
			Stat stat = new Stat();
			client.getData().storingStatIn(stat).usingWatcher(watcher).forPath(node);
			return stat;
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	/**
	 * Delete a persistent node found among the holders: every holder's node is ephemeral, so someone
	 * else planted it, and it would block the key forever. False when it may not be deleted.
	 */
	static boolean removePlanted(CuratorFramework client, String node, String key) throws Exception {
		try {
			client.delete().forPath(node);
		}
		catch (KeeperException.NoNodeException ex) {
			return true;
		}
		catch (KeeperException.NoAuthException | KeeperException.NotEmptyException ex) {
			logger.warn("Persistent znode " + node + " blocks lock '" + key + "' and cannot be deleted (" + ex.code()
					+ "); a lock holder's node is always ephemeral: delete it by hand");
			return false;
		}
		logger.warn("Deleted znode " + node + ", which blocked lock '" + key + "': it is persistent, and a lock "
				+ "holder's node is always ephemeral, so it was not created by a lock");
		return true;
	}

	/** A write on our own node, whose transaction id serves as a fresh fencing token. */
	static long touch(CuratorFramework client, String node) throws Exception {
		Stat stat = client.setData().forPath(node, EMPTY);
		return stat.getMzxid();
	}

	/** Delete a node of ours (a stray) and wait for the answer; gone already is fine. */
	static void delete(CuratorFramework client, String node) throws Exception {
		try {
			client.delete().guaranteed().forPath(node);
		}
		catch (KeeperException.NoNodeException ex) {
			// gone with its session already
		}
	}

	/**
	 * Send the delete of our node and return without waiting. The session sends its requests in order,
	 * so every later request of this JVM comes after the delete; one that fails is retried by Curator
	 * (guaranteed) in the background until the node is gone (or its session is).
	 */
	static void deleteInBackground(CuratorFramework client, String node) throws Exception {
		client.delete().guaranteed().inBackground().forPath(node);
	}

	static boolean isExclusive(String child) {
		return child.length() > SEQUENCE_LENGTH && child.charAt(child.length() - SEQUENCE_LENGTH - 1) == 'X';
	}

	private static String sequence(String child) {
		return (child.length() >= SEQUENCE_LENGTH) ? child.substring(child.length() - SEQUENCE_LENGTH) : child;
	}

}
