package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A running canary as its node {@code {root}.meta/canary/{context}} holds it ({@link ConfigLayout}), read
 * and written by this one type, so the publishing tool, the instances and the fleet view read the same
 * fields the same way. The instances whose id ({@link dev.zkspring.client.InstanceId}) is in
 * {@code instances} apply {@code document} in place of the context's base document.
 * @param revision the candidate's revision, a positive number
 * @param instances the fixed set of instance ids that run the candidate
 * @param baseVersion the base document's node version the candidate was made against; -1 when unknown
 * @param time when the canary started, epoch milliseconds; 0 when unknown
 * @param author who started it; {@code null} when unknown
 * @param message why; {@code null} when none
 * @param document the candidate document's text (one JSON object)
 */
public record ConfigCanary(long revision, List<String> instances, int baseVersion, long time, @Nullable String author,
		@Nullable String message, String document) {

	private static final JsonMapper mapper = JsonMapper.builder().build();

	public ConfigCanary {
		instances = List.copyOf(instances);
	}

	/** Whether the instance with this id runs the candidate. */
	public boolean includes(String instanceId) {
		return this.instances.contains(instanceId);
	}

	/** The node's content: one JSON object with the fields of this record. */
	public byte[] toJson() {
		Map<String, Object> node = new LinkedHashMap<>();
		node.put("revision", this.revision);
		node.put("instances", this.instances);
		node.put("baseVersion", this.baseVersion);
		node.put("time", this.time);
		node.put("author", this.author);
		node.put("message", this.message);
		node.put("document", this.document);
		return mapper.writeValueAsBytes(node);
	}

	/**
	 * Read a canary node's content.
	 * @param data the node's data
	 * @return the canary
	 * @throws IllegalArgumentException when it is not a canary: the message names the field and what is
	 * wrong, never a value
	 */
	public static ConfigCanary parse(byte @Nullable [] data) {
		JsonNode node;
		try {
			node = mapper.readTree((data != null) ? data : new byte[0]);
		}
		catch (StreamReadException ex) {
			// the parser's own message may quote the content: the position only
			throw new IllegalArgumentException("it is not valid JSON (at byte " + ex.getLocation().getByteOffset() + ")");
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException("it is not valid JSON (" + ex.getClass().getSimpleName() + ")");
		}
		if (node == null || node.isMissingNode() || !node.isObject()) {
			throw new IllegalArgumentException("its root is not a JSON object");
		}
		JsonNode revision = node.path("revision");
		if (!revision.isIntegralNumber() || revision.asLong() < 1) {
			throw new IllegalArgumentException(problem(revision, "revision", "a positive whole number"));
		}
		JsonNode instances = node.path("instances");
		if (!instances.isArray()) {
			throw new IllegalArgumentException(problem(instances, "instances", "an array of instance ids"));
		}
		List<String> ids = new ArrayList<>();
		for (JsonNode id : instances) {
			if (!id.isString()) {
				throw new IllegalArgumentException("field 'instances' holds something other than a string");
			}
			ids.add(id.asString());
		}
		JsonNode document = node.path("document");
		if (!document.isString()) {
			throw new IllegalArgumentException(problem(document, "document", "the candidate document as one JSON string"));
		}
		JsonNode baseVersion = node.path("baseVersion");
		if (!baseVersion.isMissingNode() && !baseVersion.isNull() && !baseVersion.isIntegralNumber()) {
			throw new IllegalArgumentException(problem(baseVersion, "baseVersion", "a whole number"));
		}
		return new ConfigCanary(revision.asLong(), ids, baseVersion.isIntegralNumber() ? baseVersion.asInt() : -1,
				node.path("time").isIntegralNumber() ? node.path("time").asLong() : 0, text(node, "author"),
				text(node, "message"), document.asString());
	}

	/**
	 * The candidate document's SHA-256, in hex: what a member reports it runs, and what the tool compares it
	 * with before promoting, so CURRENT means exactly this content (a revision number can be written again).
	 */
	public String digest() {
		try {
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(documentBytes()));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is not available", ex);
		}
	}

	/** The candidate document's bytes, for the same parser as the base document's. */
	byte[] documentBytes() {
		return this.document.getBytes(StandardCharsets.UTF_8);
	}

	private static @Nullable String text(JsonNode node, String field) {
		JsonNode value = node.path(field);
		return value.isString() ? value.asString() : null;
	}

	private static String problem(JsonNode value, String field, String expected) {
		return "field '" + field + "' is " + (value.isMissingNode() ? "missing" : "not " + expected)
				+ (value.isMissingNode() ? " (" + expected + ")" : "");
	}

}
