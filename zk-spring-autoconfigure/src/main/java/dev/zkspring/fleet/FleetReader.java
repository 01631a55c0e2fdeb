package dev.zkspring.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads every instance's fleet node while connected; while not, answers at once with the last list
 * read, each entry marked stale, so a status page or endpoint never waits on a lost connection.
 */
final class FleetReader {

	private final CuratorFramework client;

	private final String root;

	private final JsonMapper json;

	private volatile List<Map<String, Object>> lastRead = List.of();

	FleetReader(CuratorFramework client, String root, JsonMapper json) {
		this.client = client;
		this.root = root;
		this.json = json;
	}

	List<Map<String, Object>> instances() {
		if (!this.client.getZookeeperClient().isConnected()) {
			return this.lastRead.stream().map((instance) -> {
				Map<String, Object> stale = new LinkedHashMap<>(instance);
				stale.put("stale", true);
				return (Map<String, Object>) stale;
			}).toList();
		}
		List<Map<String, Object>> instances = new ArrayList<>();
		try {
			for (String child : this.client.getChildren().forPath(this.root)) {
				try {
					byte[] data = this.client.getData().forPath(ZKPaths.makePath(this.root, child));
					instances.add(this.json.readValue(data, new TypeReference<Map<String, Object>>() { }));
				}
				catch (KeeperException.NoNodeException ex) {
					// that instance stopped meanwhile
				}
				catch (JacksonException ex) {
					instances.add(Map.of("id", child, "error", "unreadable fleet node (not JSON)"));
				}
			}
		}
		catch (KeeperException.NoNodeException ex) {
			// no instance has published yet
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			throw new IllegalStateException("Could not read the fleet nodes under " + this.root, ex);
		}
		instances.sort(Comparator.comparing((instance) -> String.valueOf(instance.get("id"))));
		this.lastRead = List.copyOf(instances);
		return instances;
	}

}
