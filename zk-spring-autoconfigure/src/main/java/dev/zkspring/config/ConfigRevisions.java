package dev.zkspring.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Which published revision a context document in force is, for the fleet view and the {@code zookeeper}
 * endpoint: the history head ({@link ConfigLayout}) is read once per document version, with a plain read,
 * never a watch, so history writes never reload anything. A document the head does not name (written with
 * zkCli, or before the tool was used) is described as written outside the tool.
 */
public final class ConfigRevisions {

	/** The field naming the revision. */
	public static final String REVISION = "revision";

	/** The field holding the revision's message. */
	public static final String MESSAGE = "revisionMessage";

	/** The field set to {@code true} when the document in force was written outside the publishing tool. */
	public static final String OUTSIDE = "writtenOutsideTool";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final Map<String, Known> known = new ConcurrentHashMap<>();

	/**
	 * Describe the revision of one context document.
	 * @param client a connected client
	 * @param znode the context's document node
	 * @param version the document's version in force
	 * @return {@code revision} and {@code revisionMessage}, or {@code writtenOutsideTool}; empty when it
	 * cannot be told (not readable, or the tool published a newer version this instance has not applied)
	 */
	public Map<String, Object> describe(CuratorFramework client, String znode, int version) {
		if (version < 0) {
			return Map.of();
		}
		Known cached = this.known.get(znode);
		if (cached != null && cached.version() == version) {
			return cached.described();
		}
		Map<String, Object> described = new LinkedHashMap<>();
		try {
			ZKPaths.PathAndNode parts = ZKPaths.getPathAndNode(znode);
			JsonNode head = JSON.readTree(client.getData().forPath(ConfigLayout.historyNode(parts.getPath(), parts.getNode())));
			int headVersion = head.path("version").asInt(-1);
			if (headVersion > version) {
				// published after the version in force: this instance has not applied it yet
				return Map.of();
			}
			if (headVersion == version && head.path("revision").isIntegralNumber()) {
				described.put(REVISION, head.get("revision").asLong());
				if (head.path("message").isString()) {
					described.put(MESSAGE, head.get("message").asString());
				}
			}
			else {
				described.put(OUTSIDE, true);
			}
		}
		catch (KeeperException.NoNodeException ex) {
			described.put(OUTSIDE, true);
		}
		catch (Exception ex) {
			// no permission, no connection, a head that is not JSON: nothing to tell, asked again next time
			return Map.of();
		}
		this.known.put(znode, new Known(version, Map.copyOf(described)));
		return described;
	}

	private record Known(int version, Map<String, Object> described) {
	}

}
