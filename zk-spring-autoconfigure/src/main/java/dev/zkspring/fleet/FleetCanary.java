package dev.zkspring.fleet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import dev.zkspring.config.ConfigCanary;

/**
 * For a tool holding a {@link CuratorFramework} (the publishing tool's {@code canary-status}, and the check
 * before a promotion): every live instance's view of one context's canary, as the instances publish it in
 * the fleet view. Read-only; the client must use the instances' {@code zk.namespace}.
 * @param instanceId the instance's id, as a canary's {@code instances} name it
 * @param member whether the canary's set holds this instance
 * @param runsCandidate whether the instance runs a candidate for the context (rather than the base document)
 * @param revision the canary revision the instance reported about; {@code null} when it reported none yet
 * @param status for a member: CURRENT (runs exactly the candidate document the canary node holds now, by its
 * digest), REFUSED or PENDING; {@code null} for the others
 * @param reason why a member refused the candidate, naming the key, never a value; {@code null} otherwise
 */
public record FleetCanary(String instanceId, boolean member, boolean runsCandidate, @Nullable Long revision,
		@Nullable String status, @Nullable String reason) {

	/** A member that applied the canary's current revision. */
	public static final String CURRENT = ConfigState.CURRENT;

	/** A member that refused it; {@link #reason()} says why. */
	public static final String REFUSED = ConfigState.REFUSED;

	/** A member that has not reported this revision yet. */
	public static final String PENDING = ConfigState.PENDING;

	/**
	 * Every live instance of an application, as it reports one context's canary.
	 * @param client a connected client in the instances' namespace
	 * @param fleetPath the application's fleet path, {@code {zk.fleet.root}/{spring.application.name}}
	 * @param contextZnode the context's document node, such as {@code /config/orders}
	 * @return one entry per live instance, sorted by id; empty when no canary runs for the context
	 * @throws Exception when ZooKeeper cannot be read
	 */
	public static List<FleetCanary> read(CuratorFramework client, String fleetPath, String contextZnode)
			throws Exception {
		String node = CanaryState.canaryNode(contextZnode);
		if (node == null) {
			return List.of();
		}
		ConfigCanary canary;
		try {
			canary = ConfigCanary.parse(client.getData().forPath(node));
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		catch (IllegalArgumentException ex) {
			// not a canary's node: no set to be a member of; each instance still says it refused it
			canary = null;
		}
		List<FleetCanary> statuses = new ArrayList<>();
		for (Map<String, Object> instance : new FleetReader(client, fleetPath, JsonMapper.builder().build())
			.instances(null)
			.instances()) {
			if (instance.containsKey("unreadable") || instance.containsKey("stale")) {
				continue;
			}
			String id = (String) instance.get("id");
			boolean member = canary != null && canary.includes(id);
			Map<?, ?> reported = reported(instance, contextZnode);
			Long revision = (reported != null && reported.get("revision") instanceof Number number) ? number.longValue()
					: null;
			boolean current = reported != null && (canary == null || (revision != null && revision == canary.revision()));
			String status = (!current) ? (member ? PENDING : null) : (String) reported.get("status");
			if (CURRENT.equals(status) && (canary == null || !canary.digest().equals(reported.get("digest")))) {
				// it ran this revision, but not this content: the node was written again since it reported
				status = PENDING;
			}
			statuses.add(new FleetCanary(id, member,
					reported != null && Boolean.TRUE.equals(reported.get("runsCandidate")), revision, status,
					(current && REFUSED.equals(status)) ? (String) reported.get("reason") : null));
		}
		return statuses;
	}

	/**
	 * The ids of an application's live instances, as the fleet view lists them (what a canary by count
	 * chooses among).
	 * @param client a connected client in the instances' namespace
	 * @param fleetPath the application's fleet path
	 * @return the ids, sorted
	 * @throws Exception when ZooKeeper cannot be read
	 */
	public static List<String> liveInstances(CuratorFramework client, String fleetPath) throws Exception {
		List<String> ids = new ArrayList<>();
		for (Map<String, Object> instance : new FleetReader(client, fleetPath, JsonMapper.builder().build())
			.instances(null)
			.instances()) {
			if (!instance.containsKey("unreadable") && !instance.containsKey("stale")
					&& instance.get("id") instanceof String id) {
				ids.add(id);
			}
		}
		ids.sort(null);
		return ids;
	}

	private static @Nullable Map<?, ?> reported(Map<String, Object> instance, String contextZnode) {
		if (instance.get("config") instanceof List<?> contexts) {
			for (Object context : contexts) {
				if (context instanceof Map<?, ?> described && contextZnode.equals(described.get("znode"))
						&& described.get("canary") instanceof Map<?, ?> canary) {
					return canary;
				}
			}
		}
		return null;
	}

}
