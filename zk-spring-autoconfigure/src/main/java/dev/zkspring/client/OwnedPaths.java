package dev.zkspring.client;

import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

import org.apache.curator.framework.CuratorFramework;

/**
 * Whoever controls a parent node may list, delete and add children beside ours, so the nodes
 * zk-spring writes under (its namespace, the lock root, the leader root and group) must belong to this
 * application alone. The lock and leader code call this before they first create anything there.
 * <p>
 * With credentials ({@code zk.auth.*}), every node from the namespace down to the path must be
 * creator-only for this client's identity; one that is not fails with a message naming it and its
 * ACL, or is made creator-only with {@code zk.auth.repair-acls}. Missing nodes are created persistent
 * (never containers, which vanish and can then be re-created by anyone), creator-only with credentials.
 * Without credentials there is nothing to check: nothing is creator-only then.
 */
public final class OwnedPaths {

	/** Per client, because the identity and the repair switch are the client's; clients of the application's own making are not checked. */
	private static final Map<CuratorFramework, PathOwner> owners = Collections.synchronizedMap(new WeakHashMap<>());

	private OwnedPaths() {
	}

	static void register(CuratorFramework client, PathOwner owner) {
		owners.put(client, owner);
	}

	/**
	 * Make sure the path and the nodes above it, up to the namespace, exist and belong to this
	 * application. Costs one map look-up once it has succeeded for the path.
	 * @param client the application's client
	 * @param path a path below the client's namespace, such as {@code /locks}; {@code /} for the namespace
	 * @throws ZkStartupException naming the node and its ACL when others may write it
	 * @throws Exception when ZooKeeper cannot be asked
	 */
	public static void ensure(CuratorFramework client, String path) throws Exception {
		owner(client).ensure(client, path);
	}

	/**
	 * {@link #ensure} when the client is connected, so that the startup fails; when it is not (an
	 * application started from a configuration snapshot), the check waits for the first use.
	 * @param client the application's client
	 * @param path a path below the client's namespace
	 * @throws ZkStartupException naming the node when others may write it, or when it cannot be checked
	 */
	public static void ensureAtStartup(CuratorFramework client, String path) {
		if (!client.getZookeeperClient().isConnected()) {
			return;
		}
		try {
			ensure(client, path);
		}
		catch (ZkStartupException ex) {
			throw ex;
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			throw new ZkStartupException("Could not check who owns znode " + PathOwner.fullPath(client, path)
					+ ": " + ex + ".", "Check that the ensemble in zk.connect is reachable, then restart.", ex);
		}
	}

	private static PathOwner owner(CuratorFramework client) {
		synchronized (owners) {
			return owners.computeIfAbsent(client, (unknown) -> PathOwner.unchecked());
		}
	}

}
