package dev.zkspring.fleet;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zkspring.config.ConfigCanary;
import dev.zkspring.config.ConfigLayout;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.config.ZnodePropertySource;

/**
 * Per config context, the canary as this instance sees it: the canary node's revision, whether this
 * instance is in its set, whether it runs the candidate, and the candidate's status here — CURRENT
 * (running exactly the node's candidate document, by its digest), REFUSED (with the reason naming the key, never the value) or PENDING.
 * The canary node is read with a watch, so a canary that changes no key here still wakes the publisher.
 */
final class CanaryState {

	/** By canary node, this instance's last refusal of it. */
	private final Map<String, Refusal> refusals = new ConcurrentHashMap<>();

	/** Whether a refusal concerns a canary node ({@code {root}.meta/canary/{context}}) rather than a document. */
	static boolean isCanaryNode(String znode) {
		return ZKPaths.getPathAndNode(znode).getPath().endsWith(ConfigLayout.META_SUFFIX + "/canary");
	}

	/** The canary node of a context znode; {@code null} under the root {@code /}. */
	static @Nullable String canaryNode(String contextZnode) {
		ZKPaths.PathAndNode parts = ZKPaths.getPathAndNode(contextZnode);
		return "/".equals(parts.getPath()) ? null : ConfigLayout.canaryNode(parts.getPath(), parts.getNode());
	}

	void refused(ZkConfigRejectedEvent event, String reason) {
		this.refusals.put(event.getZnode(), new Refusal(event.getVersion(), reason));
	}

	/**
	 * The canary of one context, asking ZooKeeper for its node.
	 * @param context the context's source in force, {@code null} when none is
	 * @return {@code null} when the context has no canary
	 */
	@Nullable Map<String, Object> describe(CuratorFramework client, @Nullable CuratorWatcher watcher, String contextZnode,
			@Nullable ZnodePropertySource context, String instanceId) throws Exception {
		String node = canaryNode(contextZnode);
		if (node == null) {
			return null;
		}
		Stat stat = ConfigState.stat(client, watcher, node);
		byte[] data = null;
		if (stat != null) {
			try {
				data = client.getData().storingStatIn(stat).forPath(node);
			}
			catch (KeeperException.NoNodeException ex) {
				stat = null;
			}
		}
		if (stat == null) {
			// an ended canary's refusal says nothing about the next one, which starts at version 0 again
			this.refusals.remove(node);
			return null;
		}
		Map<String, Object> canary = new LinkedHashMap<>();
		canary.put("znode", node);
		Refusal refusal = this.refusals.get(node);
		boolean refusedHere = refusal != null && refusal.version() == stat.getVersion();
		ConfigCanary parsed;
		try {
			parsed = ConfigCanary.parse(data);
		}
		catch (IllegalArgumentException ex) {
			// every instance refuses a node that is not a canary's: none can tell whether it is in the set
			canary.put("member", false);
			canary.put("runsCandidate", false);
			status(canary, refusedHere, refusal);
			return canary;
		}
		ZnodePropertySource.Candidate running = (context != null) ? context.getCandidate() : null;
		boolean member = parsed.includes(instanceId);
		canary.put("revision", parsed.revision());
		canary.put("member", member);
		canary.put("runsCandidate", running != null);
		if (running != null && running.znode().equals(node) && running.digest() != null) {
			// what the member runs, so a tool can tell it from content written since under the same revision
			canary.put("digest", running.digest());
		}
		if (member) {
			// exactly this content: a node deleted and written again has the same revision and version
			if (running != null && running.znode().equals(node) && running.revision() == parsed.revision()
					&& parsed.digest().equals(running.digest())) {
				canary.put("status", ConfigState.CURRENT);
			}
			else {
				status(canary, refusedHere, refusal);
			}
		}
		return canary;
	}

	private static void status(Map<String, Object> canary, boolean refusedHere, @Nullable Refusal refusal) {
		if (refusedHere && refusal != null) {
			canary.put("status", ConfigState.REFUSED);
			canary.put("reason", refusal.reason());
		}
		else {
			canary.put("status", ConfigState.PENDING);
		}
	}

	private record Refusal(int version, String reason) {
	}

}
