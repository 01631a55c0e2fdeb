package dev.zkspring.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * For a tool holding a {@link CuratorFramework} (the operator's {@code fleet}, {@code leaders} and
 * {@code locks} commands): every live instance of every application under the fleet root, as its fleet
 * node describes it, read and checked exactly as the {@code zookeeper} endpoint's {@code fleet} section
 * reads them. Read-only; the client must use the applications' {@code zk.namespace}.
 */
public final class FleetInstances {

	private FleetInstances() {
	}

	/**
	 * One live instance.
	 * @param application the application, the name of its fleet path under the root
	 * @param id the instance's id (its node's name)
	 * @param session the ZooKeeper session that owns its node, the one its locks and latch nodes are on
	 * (0 when the node is unreadable)
	 * @param node the node as {@code ZkFleet#instances()} describes it; {@code unreadable} with a reason
	 * for a node that is not an instance's
	 */
	public record Instance(String application, String id, long session, Map<String, Object> node) {
	}

	/**
	 * Every instance, sorted by application then id.
	 * @param client a connected client in the applications' namespace
	 * @param fleetRoot the applications' {@code zk.fleet.root}
	 * @param application only this application, or {@code null} for every one
	 * @return the instances; empty when none publishes
	 * @throws Exception when ZooKeeper cannot be read
	 */
	public static List<Instance> read(CuratorFramework client, String fleetRoot, @Nullable String application)
			throws Exception {
		List<String> applications;
		if (application != null) {
			applications = List.of(application);
		}
		else {
			try {
				applications = new ArrayList<>(client.getChildren().forPath(fleetRoot));
			}
			catch (KeeperException.NoNodeException ex) {
				return List.of();
			}
			applications.sort(null);
		}
		JsonMapper json = JsonMapper.builder().build();
		List<Instance> instances = new ArrayList<>();
		for (String name : applications) {
			String path = ZKPaths.makePath(fleetRoot, name);
			for (Map<String, Object> node : new FleetReader(client, path, json).instances(null).instances()) {
				String id = String.valueOf(node.get("id"));
				long session = 0;
				if (!node.containsKey("unreadable")) {
					Stat stat = client.checkExists().forPath(ZKPaths.makePath(path, id));
					if (stat == null) {
						// stopped meanwhile
						continue;
					}
					session = stat.getEphemeralOwner();
				}
				instances.add(new Instance(name, id, session, node));
			}
		}
		return instances;
	}

}
