package dev.zkspring.cli;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

import dev.zkspring.fleet.FleetInstances;

/**
 * Which shards of sharded jobs each live instance owns, for {@code fleet}: read from the owners in force that the
 * leader writes beside each election's latch node, {@code {latch}.shards/jobs/{group.job}/assignment} (a JSON list
 * of participant ids, one per shard; docs/sharded-jobs.md), since the fleet node does not carry them. The owners in
 * force are those of the last fire time: an instance that joined since owns nothing here until the next one.
 */
final class ShardOwners {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private ShardOwners() {
	}

	/**
	 * Per application and instance id: one entry per sharded job it owns shards of, {@code job} (group.name) and
	 * {@code shards} (the indexes, ascending).
	 */
	static Map<String, List<Map<String, Object>>> read(CuratorFramework client, List<FleetInstances.Instance> instances)
			throws Exception {
		TreeSet<String> latches = new TreeSet<>();
		for (FleetInstances.Instance instance : instances) {
			if (instance.node().get("leadership") instanceof List<?> groups) {
				for (Object group : groups) {
					latches.add(instance.application() + "/" + ((Map<?, ?>) group).get("group"));
				}
			}
		}
		Map<String, Map<String, TreeSet<Integer>>> owned = new TreeMap<>();
		for (String entry : latches) {
			// application/latch: an application's name has no '/' (its fleet path is named after it)
			String application = entry.substring(0, entry.indexOf('/'));
			String jobs = entry.substring(entry.indexOf('/') + 1) + ".shards/jobs";
			for (String job : children(client, jobs)) {
				List<String> owners = owners(client, jobs + "/" + job + "/assignment");
				String name = URLDecoder.decode(job, StandardCharsets.UTF_8);
				for (int shard = 0; shard < owners.size(); shard++) {
					// the fleet node's name is the participant id with '/' as '_'
					owned.computeIfAbsent(application + "/" + owners.get(shard).replace('/', '_'), (k) -> new TreeMap<>())
						.computeIfAbsent(name, (k) -> new TreeSet<>()).add(shard);
				}
			}
		}
		Map<String, List<Map<String, Object>>> byInstance = new TreeMap<>();
		owned.forEach((owner, byJob) -> {
			List<Map<String, Object>> list = new ArrayList<>();
			byJob.forEach((job, shards) -> {
				Map<String, Object> described = new LinkedHashMap<>();
				described.put("job", job);
				described.put("shards", List.copyOf(shards));
				list.add(described);
			});
			byInstance.put(owner, list);
		});
		return byInstance;
	}

	/** The key {@link #read} files an instance under: its application and its id as owners name it. */
	static String key(FleetInstances.Instance instance) {
		return instance.application() + "/" + instance.id();
	}

	private static List<String> owners(CuratorFramework client, String path) throws Exception {
		try {
			return JSON.readValue(client.getData().forPath(path), new TypeReference<List<String>>() {
			});
		}
		catch (KeeperException.NoNodeException | JacksonException ex) {
			// gone meanwhile, or not what the leader writes: nobody owns those shards here
			return List.of();
		}
	}

	private static List<String> children(CuratorFramework client, String path) throws Exception {
		try {
			return client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

}
