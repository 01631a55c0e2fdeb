package dev.zkspring.config;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.apache.curator.RetryLoop;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The stats {@link ContextReader} plans its careful reads on: one stat per node, or for nodes that
 * mostly do not exist (canary nodes) one listing of their parent and a stat only of those it holds.
 */
final class NodeStats {

	/** The stat of a listed node its parent's listing did not hold: missing, not read. */
	static final Stat ABSENT = new Stat();

	private final CuratorFramework client;

	NodeStats(CuratorFramework client) {
		this.client = client;
	}

	/** A listed node's stat, {@link #ABSENT} when its parent's listing does not hold it. */
	@Nullable Stat listed(String znode, Map<String, @Nullable Set<String>> children) throws Exception {
		ZKPaths.PathAndNode parts = ZKPaths.getPathAndNode(znode);
		if (!children.containsKey(parts.getPath())) {
			children.put(parts.getPath(), children(parts.getPath()));
		}
		Set<String> listing = children.get(parts.getPath());
		if (listing != null && !listing.contains(parts.getNode())) {
			return ABSENT;
		}
		// listed, or a parent this identity may not list: a stat says (and the read reports NOAUTH)
		return readable(znode);
	}

	/** The children of a node; empty when it is missing, {@code null} when this identity may not list it. */
	private @Nullable Set<String> children(String parent) throws Exception {
		try {
			return new HashSet<>(RetryLoop.callWithRetry(this.client.getZookeeperClient(),
					() -> TracedRequests.call(this.client, "getChildren", () -> zooKeeper().getChildren(path(parent), false))));
		}
		catch (KeeperException.NoNodeException ex) {
			return Set.of();
		}
		catch (KeeperException.NoAuthException ex) {
			return null;
		}
	}

	/** The node's stat; {@code null} when it is missing or this identity may not read it (the read says which). */
	@Nullable Stat readable(String znode) throws Exception {
		try {
			return exists(znode);
		}
		catch (KeeperException.NoAuthException ex) {
			return null;
		}
	}

	private @Nullable Stat exists(String znode) throws Exception {
		return RetryLoop.callWithRetry(this.client.getZookeeperClient(),
				() -> TracedRequests.call(this.client, "exists", () -> zooKeeper().exists(path(znode), false)));
	}

	private String path(String znode) {
		return ZKPaths.fixForNamespace(this.client.getNamespace(), znode);
	}

	private ZooKeeper zooKeeper() throws Exception {
		return this.client.getZookeeperClient().getZooKeeper();
	}

}
