package dev.zkspring.publish;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON of history heads and revision records, with the fields {@link dev.zkspring.config.ConfigLayout}
 * names. A record anyone could have written by hand is read defensively: what is not a history node is
 * refused with the znode's name, never its content.
 */
final class HistoryCodec {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private HistoryCodec() {
	}

	static byte[] head(Revision revision) {
		return JSON.writeValueAsBytes(headNode(revision));
	}

	static byte[] record(Revision revision) {
		ObjectNode node = headNode(revision);
		ObjectNode keys = node.putObject("keys");
		names(keys.putArray("added"), revision.keys().added());
		names(keys.putArray("removed"), revision.keys().removed());
		names(keys.putArray("changed"), revision.keys().changed());
		if (revision.document() != null) {
			node.put("document", revision.document());
		}
		else {
			node.putNull("document");
		}
		return JSON.writeValueAsBytes(node);
	}

	private static ObjectNode headNode(Revision revision) {
		ObjectNode node = JSON.createObjectNode();
		node.put("revision", revision.revision());
		node.put("version", revision.version());
		node.put("time", revision.time().toEpochMilli());
		node.put("author", revision.author());
		if (revision.message() != null) {
			node.put("message", revision.message());
		}
		else {
			node.putNull("message");
		}
		node.put("kind", revision.kind());
		return node;
	}

	private static void names(ArrayNode array, List<String> names) {
		names.forEach(array::add);
	}

	/**
	 * Read a head or a record.
	 * @param znode where the data comes from, for the error message
	 * @param data the node's data
	 * @throws IllegalStateException naming the znode when the data is not a history node
	 */
	static Revision read(String znode, byte[] data) {
		JsonNode node;
		try {
			node = JSON.readTree(data);
		}
		catch (JacksonException ex) {
			throw unreadable(znode, "not JSON");
		}
		if (node == null || !node.isObject() || !node.path("revision").isIntegralNumber()
				|| !node.path("version").isIntegralNumber() || !node.path("time").isIntegralNumber()) {
			throw unreadable(znode, "not a history node (revision, version and time must be whole numbers)");
		}
		JsonNode keys = node.path("keys");
		KeyDiff diff = new KeyDiff(names(keys.path("added")), names(keys.path("removed")), names(keys.path("changed")));
		return new Revision(node.get("revision").asLong(), node.get("version").asInt(),
				Instant.ofEpochMilli(node.get("time").asLong()), text(node, "author", ConfigPublisher.UNKNOWN_AUTHOR),
				text(node, "message", null), text(node, "kind", "put"), diff, text(node, "document", null));
	}

	private static List<String> names(JsonNode array) {
		List<String> names = new ArrayList<>();
		for (int i = 0; i < array.size(); i++) {
			if (array.get(i).isString()) {
				names.add(array.get(i).asString());
			}
		}
		return names;
	}

	private static @Nullable String text(JsonNode node, String field, @Nullable String fallback) {
		JsonNode value = node.get(field);
		return (value != null && value.isString()) ? value.asString() : fallback;
	}

	private static IllegalStateException unreadable(String znode, String why) {
		return new IllegalStateException("The history node " + znode + " is " + why
				+ ": it was not written by the publishing tool; delete it with zkCli to let the tool start the "
				+ "history anew");
	}

}
