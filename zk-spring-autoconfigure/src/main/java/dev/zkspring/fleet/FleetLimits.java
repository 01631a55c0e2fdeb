package dev.zkspring.fleet;

import java.util.List;
import java.util.Map;

import tools.jackson.databind.json.JsonMapper;

/**
 * How much of the fleet view one node, and the whole view, may take, so that nodes anyone may write
 * cannot make every call of the view return megabytes; an instance keeps its own node within the bound.
 */
final class FleetLimits {

	/** A node larger than this is listed by its name only: an instance's own stays below it. */
	static final int MAX_NODE_BYTES = 32 * 1024;

	/** The view's entries take at most about this much; nodes beyond it are left out and counted. */
	static final int MAX_VIEW_BYTES = 512 * 1024;

	/** Names longer than this are shortened in the view (an instance's id is far shorter). */
	static final int MAX_NAME_CHARS = 200;

	private FleetLimits() {
	}

	static boolean nameTooLong(String name) {
		return name.length() > MAX_NAME_CHARS;
	}

	static String shownName(String name) {
		return nameTooLong(name) ? name.substring(0, MAX_NAME_CHARS) + "..." : name;
	}

	/**
	 * This instance's node document within {@link #MAX_NODE_BYTES}: when it is larger (many keys held,
	 * long refusal reasons), the lists are halved until it fits, and {@code truncated} says so.
	 */
	static byte[] fit(Map<String, Object> node, JsonMapper json) {
		byte[] data = json.writeValueAsBytes(node);
		while (data.length > MAX_NODE_BYTES) {
			node.put("truncated", true);
			boolean shortened = halve(node, "locks") | halve(node, "recent") | halve(node, "config") | halve(node, "jobs");
			if (!shortened && node.remove("leadership") == null) {
				break;
			}
			data = json.writeValueAsBytes(node);
		}
		return data;
	}

	@SuppressWarnings("unchecked")
	private static boolean halve(Map<String, Object> node, String field) {
		List<Object> list = (List<Object>) node.get(field);
		if (list == null || list.isEmpty()) {
			return false;
		}
		node.put(field, List.copyOf(list.subList(list.size() / 2, list.size())));
		return true;
	}

}
