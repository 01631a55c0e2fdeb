package dev.zkspring.config;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;

/**
 * Turns one context document (UTF-8 JSON object) into flat Spring keys: nested objects become dotted
 * keys, arrays {@code [i]} keys, {@code null} leaves the key unset, numbers and booleans keep their
 * text, {@code []} becomes an empty value (as Boot's YAML loader writes it, so an empty list replaces a
 * lower source's), {@code {}} a marker key that clears a lower source's map (see
 * {@link ZnodePropertySource#CLEARED_MAP}), and a member name that is not a plain property name ({@code /},
 * {@code :}, {@code *}, spaces...) becomes one verbatim map key in Boot's {@code [...]} notation. A
 * dotted name is a path at the document's root ({@code "shop.max-items"}) and one map key inside an
 * object ({@code {"hosts":{"db.example.com":{}}}} is {@code hosts[db.example.com]}).
 * Anything else is rejected with a reason that names keys and positions, never values.
 */
final class JsonDocumentParser {

	static final int MAX_DEPTH = 64;

	/**
	 * What one JSON key may hold between dots and stay a dotted key: letters and digits of any script
	 * (with their combining marks), {@code -} and {@code _}. Boot's YAML loader writes such names dotted
	 * ({@code shop.grüße}); only characters its relaxed binding drops from a map key need Boot's brackets.
	 */
	private static final Pattern KEY_SEGMENT = Pattern.compile("[\\p{L}\\p{M}\\p{N}_-]+");

	/** A key already written in Boot's bracket notation, one map key. */
	private static final Pattern BRACKETED = Pattern.compile("\\[[^\\[\\]]+\\]");

	private static final JsonFactory FACTORY = JsonFactory.builder()
		.streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
		.build();

	private final long maxBytes;

	JsonDocumentParser(long maxBytes) {
		this.maxBytes = maxBytes;
	}

	Map<String, String> parse(byte[] data) throws DocumentRejectedException {
		if (data.length > this.maxBytes) {
			throw new DocumentRejectedException("the document is " + data.length + " bytes, over the limit of "
					+ this.maxBytes + " bytes (zk.config.max-document-size)");
		}
		String text = decode(data);
		Map<String, String> properties = new LinkedHashMap<>();
		if (text.isBlank()) {
			return properties;
		}
		try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), text)) {
			JsonToken root = parser.nextToken();
			if (root != JsonToken.START_OBJECT) {
				throw new DocumentRejectedException("the document's root is " + describe(root) + ", not a JSON object");
			}
			readObject(parser, "", 1, properties);
			if (parser.nextToken() != null) {
				throw new DocumentRejectedException("malformed JSON: content follows the root object at "
						+ position(parser.currentTokenLocation()));
			}
		}
		catch (StreamConstraintsException ex) {
			// these messages give lengths and limits only, never content
			throw new DocumentRejectedException(String.valueOf(ex.getOriginalMessage()).contains("nesting depth")
					? "the document nests deeper than " + MAX_DEPTH + " levels"
					: "the document exceeds a JSON parser limit: " + ex.getOriginalMessage());
		}
		catch (JacksonException ex) {
			// Jackson's own message can quote the document, so only its position is kept
			throw new DocumentRejectedException("malformed JSON at " + position(ex.getLocation()));
		}
		return properties;
	}

	private static String decode(byte[] data) throws DocumentRejectedException {
		CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
			.onMalformedInput(CodingErrorAction.REPORT)
			.onUnmappableCharacter(CodingErrorAction.REPORT);
		ByteBuffer bytes = ByteBuffer.wrap(data);
		try {
			return decoder.decode(bytes).toString();
		}
		catch (CharacterCodingException ex) {
			throw new DocumentRejectedException("the document is not valid UTF-8 (bad byte sequence near byte "
					+ bytes.position() + ")");
		}
	}

	private int readObject(JsonParser parser, String prefix, int depth, Map<String, String> properties)
			throws DocumentRejectedException {
		int entries = 0;
		while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
			String key = key(prefix, parser.currentName());
			parser.nextToken();
			readValue(parser, key, depth, properties);
			entries++;
		}
		return entries;
	}

	private int readArray(JsonParser parser, String prefix, int depth, Map<String, String> properties)
			throws DocumentRejectedException {
		int index = 0;
		while (parser.nextToken() != JsonToken.END_ARRAY) {
			readValue(parser, prefix + "[" + index++ + "]", depth, properties);
		}
		return index;
	}

	private void readValue(JsonParser parser, String key, int depth, Map<String, String> properties)
			throws DocumentRejectedException {
		JsonToken token = parser.currentToken();
		switch (token) {
			case START_OBJECT -> {
				// {} empties the map: a marker, since an empty value cannot bind to a Map (Boot's YAML writes nothing)
				if (readObject(parser, key, depth + 1, properties) == 0) {
					put(properties, key + ZnodePropertySource.CLEARED_MAP, "");
				}
			}
			case START_ARRAY -> {
				// an empty value, as Boot's YAML loader writes for [], binds an empty list over lower sources
				if (readArray(parser, key, depth + 1, properties) == 0) {
					put(properties, key, "");
				}
			}
			case VALUE_NULL -> {
				// null means unset: the key stays out, so a lower source or the default applies
			}
			default -> put(properties, key, parser.getText());
		}
	}

	private static void put(Map<String, String> properties, String key, String value) throws DocumentRejectedException {
		if (properties.putIfAbsent(key, value) != null) {
			throw new DocumentRejectedException("the key '" + key + "' is defined twice", key);
		}
	}

	/**
	 * The Spring key of an object member: dotted when the name is made of plain property-name elements
	 * (separated by dots only at the root), else a map key kept verbatim in Boot's bracket notation
	 * ({@code routes[/api/**]}, {@code hosts[db.example.com]}).
	 */
	private static String key(String prefix, String name) throws DocumentRejectedException {
		String dotted = prefix.isEmpty() ? name : prefix + "." + name;
		if (name.isEmpty()) {
			throw new DocumentRejectedException("the document has an empty key "
					+ (prefix.isEmpty() ? "at its root" : "under '" + prefix + "'"), dotted);
		}
		boolean plain = true;
		// at the root a dotted name is a path (the flat style); inside an object it is one map key
		for (String segment : prefix.isEmpty() ? name.split("\\.", -1) : new String[] { name }) {
			plain &= KEY_SEGMENT.matcher(segment).matches();
		}
		if (plain) {
			return dotted;
		}
		if (BRACKETED.matcher(name).matches()) {
			// already in Boot's notation
			return prefix + name;
		}
		if (name.indexOf('[') >= 0 || name.indexOf(']') >= 0) {
			throw new DocumentRejectedException("the key '" + dotted + "' cannot be bound: a map key may not contain "
					+ "'[' or ']' unless the whole key is one bracketed map key such as '[/api/**]'", dotted);
		}
		return prefix + "[" + name + "]";
	}

	private static String describe(JsonToken token) {
		if (token == null) {
			return "empty";
		}
		return switch (token) {
			case START_ARRAY -> "an array";
			case VALUE_STRING -> "a string";
			case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
			case VALUE_TRUE, VALUE_FALSE -> "a boolean";
			case VALUE_NULL -> "null";
			default -> token.name();
		};
	}

	private static String position(TokenStreamLocation location) {
		if (location == null) {
			return "an unknown position";
		}
		return "line " + location.getLineNr() + ", column " + location.getColumnNr();
	}

}
