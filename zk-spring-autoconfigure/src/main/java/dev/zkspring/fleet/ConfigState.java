package dev.zkspring.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.config.ConfigRevisions;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.config.ZnodePropertySource;

/**
 * Per config context znode: the version in force (from the Environment), the newest version in
 * ZooKeeper (read with a watch when the config center does not watch these nodes itself, so a write no
 * event reports still wakes the publisher; when it does, its node listeners wake it) and the last
 * refusal (znode, version, reason naming keys; never a value), and the published revision in force
 * (its number and message, or that it was written outside the tool).
 */
final class ConfigState {

	static final String CURRENT = "CURRENT";

	static final String REFUSED = "REFUSED";

	static final String PENDING = "PENDING";

	private final ConfigurableEnvironment environment;

	private final Map<String, Refusal> refusals = new ConcurrentHashMap<>();

	private final ConfigRevisions revisions = new ConfigRevisions();

	private final CanaryState canaries = new CanaryState();

	ConfigState(ConfigurableEnvironment environment) {
		this.environment = environment;
	}

	void refused(ZkConfigRejectedEvent event) {
		String reason = event.getReason();
		String key = event.getKey();
		if (key != null && !reason.contains(key)) {
			reason = reason + " (key '" + key + "')";
		}
		if (CanaryState.isCanaryNode(event.getZnode())) {
			this.canaries.refused(event, reason);
			return;
		}
		this.refusals.put(event.getZnode(), new Refusal(event.getVersion(), reason));
	}

	/**
	 * Describe every context, asking ZooKeeper for each one's newest version.
	 * @param client a connected client
	 * @param watcher told when a context node changes next; {@code null} to set no watch (the config
	 * center's persistent watches tell of changes, and a one-shot watch of the same session would replace
	 * them on a server before 3.9)
	 * @param instanceId this instance's id, which a canary names to give it the candidate
	 */
	List<Map<String, Object>> describe(CuratorFramework client, @Nullable CuratorWatcher watcher, String instanceId)
			throws Exception {
		List<Map<String, Object>> described = new ArrayList<>();
		for (ZnodePropertySource context : ZnodePropertySource.inForce(this.environment)) {
			Stat stat = stat(client, watcher, context.getZnode());
			int latest = (stat != null) ? stat.getVersion() : -1;
			int applied = context.getVersion();
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("znode", context.getZnode());
			details.put("appliedVersion", applied);
			details.put("latestVersion", latest);
			details.putAll(this.revisions.describe(client, context.getZnode(), applied));
			Refusal refusal = this.refusals.get(context.getZnode());
			if (applied == latest) {
				details.put("status", CURRENT);
			}
			else if (refusal != null && refusal.version() == latest) {
				details.put("status", REFUSED);
				details.put("reason", refusal.reason());
			}
			else {
				details.put("status", PENDING);
			}
			canary(details, this.canaries.describe(client, watcher, context.getZnode(), context, instanceId));
			described.add(details);
		}
		// a context refused before it was ever accepted is not in the Environment: it is listed all the same
		Set<String> listed = described.stream().map((context) -> (String) context.get("znode")).collect(Collectors.toSet());
		for (Map.Entry<String, Refusal> refused : this.refusals.entrySet()) {
			if (!listed.contains(refused.getKey())) {
				Stat stat = stat(client, watcher, refused.getKey());
				if (stat != null && stat.getVersion() == refused.getValue().version()) {
					Map<String, Object> details = new LinkedHashMap<>();
					details.put("znode", refused.getKey());
					details.put("appliedVersion", -1);
					details.put("latestVersion", stat.getVersion());
					details.put("status", REFUSED);
					details.put("reason", refused.getValue().reason());
					canary(details, this.canaries.describe(client, watcher, refused.getKey(), null, instanceId));
					described.add(details);
				}
			}
		}
		return described;
	}

	static @Nullable Stat stat(CuratorFramework client, @Nullable CuratorWatcher watcher, String znode) throws Exception {
		return (watcher != null) ? client.checkExists().usingWatcher(watcher).forPath(znode)
				: client.checkExists().forPath(znode);
	}

	private static void canary(Map<String, Object> details, @Nullable Map<String, Object> canary) {
		if (canary != null) {
			details.put("canary", canary);
		}
	}

	static boolean settled(List<Map<String, Object>> config) {
		return config.stream()
			.noneMatch((context) -> PENDING.equals(context.get("status")) || (context.get("canary") instanceof Map<?, ?> canary
					&& PENDING.equals(canary.get("status"))));
	}

	private record Refusal(int version, @Nullable String reason) {
	}

}
