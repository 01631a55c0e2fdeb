package dev.zkspring.fleet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * Reads every instance's fleet node while connected; while not, answers at once with the last list
 * read, each entry marked stale, so a status page or endpoint never waits on a lost connection. Any
 * client may write under the fleet path: a node that is not an instance's (persistent, not readable,
 * too large, not what an instance writes) is listed by its name with the reason it is
 * {@code unreadable}; the data read for one view is bounded ({@link FleetLimits}), and this instance's
 * own node is read first, so it always shows.
 */
final class FleetReader {

	private final CuratorFramework client;

	private final String root;

	private final JsonMapper json;

	private final NodeContent content;

	private volatile Listing lastRead = new Listing(List.of(), 0, false);

	FleetReader(CuratorFramework client, String root, JsonMapper json) {
		this.client = client;
		this.root = root;
		this.json = json;
		this.content = new NodeContent(json);
	}

	/**
	 * Every node under the root, sorted by name.
	 * @param own this instance's node name, read first; {@code null} before it has one
	 */
	Listing instances(@Nullable String own) {
		if (!this.client.getZookeeperClient().isConnected()) {
			return stale();
		}
		List<String> children;
		try {
			children = new ArrayList<>(this.client.getChildren().forPath(this.root));
		}
		catch (KeeperException.NoNodeException ex) {
			// no instance has published yet
			children = new ArrayList<>();
		}
		catch (Exception ex) {
			return failed(ex);
		}
		children.sort(Comparator.comparing((String child) -> !child.equals(own)).thenComparing(Comparator.naturalOrder()));
		List<Map<String, Object>> instances = new ArrayList<>();
		int budget = FleetLimits.MAX_VIEW_BYTES;
		int omitted = 0;
		for (String child : children) {
			if (budget <= 0) {
				omitted++;
				continue;
			}
			try {
				Entry entry = read(child, budget);
				if (entry != null) {
					instances.add(entry.instance());
					budget -= entry.size();
				}
			}
			catch (Exception ex) {
				return failed(ex);
			}
		}
		instances.sort(Comparator.comparing((instance) -> String.valueOf(instance.get("id"))));
		Listing listing = new Listing(List.copyOf(instances), omitted, false);
		this.lastRead = listing;
		return listing;
	}

	/**
	 * One view of the fleet.
	 * @param instances the entries, sorted by id
	 * @param omitted how many nodes were left out once the view reached its size bound
	 * @param stale whether this is the last view read, given while not connected
	 */
	record Listing(List<Map<String, Object>> instances, int omitted, boolean stale) {
	}

	/** The node's entry, or {@code null} if it is gone. */
	private @Nullable Entry read(String child, int budget) throws Exception {
		String path = ZKPaths.makePath(this.root, child);
		String name = FleetLimits.shownName(child);
		if (FleetLimits.nameTooLong(child)) {
			return unreadable(name, "not an instance's node: its name is longer than " + FleetLimits.MAX_NAME_CHARS
					+ " characters");
		}
		try {
			Stat stat = this.client.checkExists().forPath(path);
			if (stat == null) {
				return null;
			}
			if (stat.getEphemeralOwner() == 0) {
				return unreadable(name, "not an instance's node: it is persistent, and an instance's node is ephemeral");
			}
			if (stat.getDataLength() > FleetLimits.MAX_NODE_BYTES) {
				return unreadable(name, "larger than " + FleetLimits.MAX_NODE_BYTES + " bytes");
			}
			if (stat.getDataLength() > budget) {
				return unreadable(name, "not read: the fleet view reads at most " + FleetLimits.MAX_VIEW_BYTES + " bytes");
			}
			byte[] data = this.client.getData().forPath(path);
			if (data == null || data.length == 0) {
				return unreadable(name, "no data");
			}
			if (data.length > FleetLimits.MAX_NODE_BYTES || data.length > budget) {
				return unreadable(name, "larger than " + FleetLimits.MAX_NODE_BYTES + " bytes");
			}
			Map<String, Object> instance = this.content.read(name, data);
			return new Entry(instance, this.json.writeValueAsBytes(instance).length);
		}
		catch (NodeContent.Unreadable ex) {
			return unreadable(name, "not an instance's fleet node: " + ex.getMessage());
		}
		catch (KeeperException.NoNodeException ex) {
			// that instance stopped meanwhile
			return null;
		}
		catch (KeeperException.NoAuthException ex) {
			return unreadable(name, "not readable with this instance's credentials");
		}
	}

	private static Entry unreadable(String name, String reason) {
		Map<String, Object> instance = new LinkedHashMap<>();
		instance.put("id", name);
		instance.put("unreadable", reason);
		return new Entry(instance, name.length() + reason.length() + 32);
	}

	/** An entry of the view and what it costs of the view's bound. */
	private record Entry(Map<String, Object> instance, int size) {
	}

	private Listing failed(Exception ex) {
		if (ex instanceof InterruptedException) {
			Thread.currentThread().interrupt();
		}
		if (ex instanceof KeeperException keeper && (keeper.code() == KeeperException.Code.CONNECTIONLOSS
				|| keeper.code() == KeeperException.Code.SESSIONEXPIRED || keeper.code() == KeeperException.Code.SESSIONMOVED)
				|| ex instanceof InterruptedException) {
			return stale();
		}
		throw new IllegalStateException("Could not read the fleet nodes under " + this.root, ex);
	}

	private Listing stale() {
		Listing last = this.lastRead;
		return new Listing(last.instances().stream().map((instance) -> {
			Map<String, Object> stale = new LinkedHashMap<>(instance);
			stale.put("stale", true);
			return (Map<String, Object>) stale;
		}).toList(), last.omitted(), true);
	}

}
