package dev.zkspring.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import dev.zkspring.config.ConfigRevisions;

/**
 * One fleet node's data as the view shows it: only the fields an instance writes, each of the type it
 * writes, and the node's name as its id (whatever the data says). Anyone who may write under the fleet
 * path can put anything there, so a node that is not what an instance writes is refused whole, with a
 * reason that names the field, never its content.
 */
final class NodeContent {

	private static final Set<String> STATUSES = Set.of(ConfigState.CURRENT, ConfigState.REFUSED, ConfigState.PENDING);

	private final JsonMapper json;

	NodeContent(JsonMapper json) {
		this.json = json;
	}

	/**
	 * The node as the view lists it.
	 * @param name the node's name, the instance's id in the view
	 * @param data the node's data
	 * @throws Unreadable if the data is not an instance's node document
	 */
	Map<String, Object> read(String name, byte[] data) throws Unreadable {
		JsonNode root;
		try {
			root = this.json.readTree(data);
		}
		catch (JacksonException ex) {
			throw new Unreadable("not JSON");
		}
		if (root == null || !root.isObject()) {
			throw new Unreadable("not a JSON object");
		}
		Map<String, Object> node = new LinkedHashMap<>();
		node.put("id", name);
		optional(node, root, "host", NodeContent::text);
		node.put("leader", root.has("leader") ? bool(root, "leader") : false);
		optional(node, root, "epoch", NodeContent::number);
		optional(node, root, "leadership", (parent, field) -> list(parent, field, (group, at) -> {
			Map<String, Object> described = new LinkedHashMap<>();
			described.put("group", text(group, "group"));
			described.put("leader", bool(group, "leader"));
			described.put("epoch", number(group, "epoch"));
			optional(described, group, "since", NodeContent::number);
			return described;
		}));
		optional(node, root, "configSource", NodeContent::text);
		optional(node, root, "config", (parent, field) -> list(parent, field, (context, at) -> {
			Map<String, Object> described = new LinkedHashMap<>();
			described.put("znode", text(context, "znode"));
			described.put("appliedVersion", (int) number(context, "appliedVersion"));
			described.put("latestVersion", (int) number(context, "latestVersion"));
			String status = text(context, "status");
			if (!STATUSES.contains(status)) {
				throw new Unreadable("'" + at + ".status' is none of " + STATUSES);
			}
			described.put("status", status);
			optional(described, context, ConfigRevisions.REVISION, NodeContent::number);
			optional(described, context, ConfigRevisions.MESSAGE, NodeContent::text);
			optional(described, context, ConfigRevisions.OUTSIDE, NodeContent::bool);
			optional(described, context, "reason", NodeContent::text);
			optional(described, context, "canary", NodeContent::canary);
			return described;
		}));
		optional(node, root, "locks", (parent, field) -> list(parent, field, (lock, at) -> {
			Map<String, Object> described = new LinkedHashMap<>();
			described.put("key", text(lock, "key"));
			described.put("mode", text(lock, "mode"));
			described.put("since", number(lock, "since"));
			optional(described, lock, "token", NodeContent::number);
			return described;
		}));
		optional(node, root, "crashDetection", NodeContent::crashDetection);
		// absent in the node of an instance older than the field: the tool then knows its jobs only from their runs
		optional(node, root, "jobs", (parent, field) -> list(parent, field, (job, at) -> {
			Map<String, Object> described = new LinkedHashMap<>();
			described.put("name", text(job, "name"));
			optional(described, job, "group", NodeContent::text);
			optional(described, job, "leaderGroup", NodeContent::text);
			optional(described, job, "shards", NodeContent::number);
			return described;
		}));
		optional(node, root, "recent", (parent, field) -> list(parent, field, (period, at) -> {
			Map<String, Object> described = new LinkedHashMap<>();
			described.put("kind", text(period, "kind"));
			described.put("label", text(period, "label"));
			described.put("start", number(period, "start"));
			described.put("end", number(period, "end"));
			return described;
		}));
		optional(node, root, "updated", NodeContent::number);
		optional(node, root, "truncated", NodeContent::bool);
		return node;
	}

	private static Map<String, Object> crashDetection(JsonNode parent, String field) throws Unreadable {
		JsonNode crash = parent.get(field);
		if (!crash.isObject()) {
			throw new Unreadable("'" + field + "' is not an object");
		}
		Map<String, Object> described = new LinkedHashMap<>();
		described.put("state", text(crash, "state"));
		optional(described, crash, "address", NodeContent::text);
		described.put("inbound", number(crash, "inbound"));
		described.put("watching", list(crash, "watching", (peer, at) -> {
			Map<String, Object> watched = new LinkedHashMap<>();
			watched.put("session", text(peer, "session"));
			optional(watched, peer, "instance", NodeContent::text);
			watched.put("state", text(peer, "state"));
			return watched;
		}));
		described.put("deathsDetected", number(crash, "deathsDetected"));
		described.put("sessionsEnded", number(crash, "sessionsEnded"));
		return described;
	}

	private static Map<String, Object> canary(JsonNode parent, String field) throws Unreadable {
		JsonNode canary = parent.get(field);
		if (!canary.isObject()) {
			throw new Unreadable("'" + field + "' is not an object");
		}
		Map<String, Object> described = new LinkedHashMap<>();
		described.put("znode", text(canary, "znode"));
		optional(described, canary, "revision", NodeContent::number);
		described.put("member", bool(canary, "member"));
		described.put("runsCandidate", bool(canary, "runsCandidate"));
		if (canary.hasNonNull("status")) {
			String status = text(canary, "status");
			if (!STATUSES.contains(status)) {
				throw new Unreadable("'" + field + ".status' is none of " + STATUSES);
			}
			described.put("status", status);
		}
		optional(described, canary, "reason", NodeContent::text);
		optional(described, canary, "digest", NodeContent::text);
		return described;
	}

	private static void optional(Map<String, Object> target, JsonNode parent, String field, Field reader)
			throws Unreadable {
		JsonNode value = parent.get(field);
		if (value != null && !value.isNull()) {
			target.put(field, reader.read(parent, field));
		}
	}

	private static List<Map<String, Object>> list(JsonNode parent, String field, Element element) throws Unreadable {
		JsonNode array = parent.get(field);
		if (array == null || !array.isArray()) {
			throw new Unreadable("'" + field + "' is not a list");
		}
		List<Map<String, Object>> list = new ArrayList<>();
		for (int i = 0; i < array.size(); i++) {
			JsonNode item = array.get(i);
			if (!item.isObject()) {
				throw new Unreadable("'" + field + "[" + i + "]' is not an object");
			}
			list.add(element.read(item, field + "[" + i + "]"));
		}
		return list;
	}

	private static String text(JsonNode parent, String field) throws Unreadable {
		JsonNode value = parent.get(field);
		if (value == null || !value.isString()) {
			throw new Unreadable("'" + field + "' is missing or not text");
		}
		return value.asString();
	}

	private static boolean bool(JsonNode parent, String field) throws Unreadable {
		JsonNode value = parent.get(field);
		if (value == null || !value.isBoolean()) {
			throw new Unreadable("'" + field + "' is missing or not true/false");
		}
		return value.asBoolean();
	}

	private static long number(JsonNode parent, String field) throws Unreadable {
		JsonNode value = parent.get(field);
		if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
			throw new Unreadable("'" + field + "' is missing or not a whole number");
		}
		return value.asLong();
	}

	@FunctionalInterface
	private interface Field {

		Object read(JsonNode parent, String field) throws Unreadable;

	}

	@FunctionalInterface
	private interface Element {

		Map<String, Object> read(JsonNode item, String at) throws Unreadable;

	}

	/** The data is not an instance's node; the message says why without quoting it. */
	static final class Unreadable extends Exception {

		Unreadable(String reason) {
			super(reason, null, false, false);
		}

	}

}
