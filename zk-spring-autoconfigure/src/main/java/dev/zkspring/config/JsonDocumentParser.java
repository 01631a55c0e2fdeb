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
 * text. Anything else is rejected with a reason that names keys and positions, never values.
 */
final class JsonDocumentParser {

	static final int MAX_DEPTH = 64;

	/** What one JSON key may hold between dots: what relaxed binding maps to a property name. */
	private static final Pattern KEY_SEGMENT = Pattern.compile("[A-Za-z0-9_-]+");

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

	private void readObject(JsonParser parser, String prefix, int depth, Map<String, String> properties)
			throws DocumentRejectedException {
		while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
			String name = parser.currentName();
			String key = prefix.isEmpty() ? name : prefix + "." + name;
			validateName(name, prefix, key);
			parser.nextToken();
			readValue(parser, key, depth, properties);
		}
	}

	private void readArray(JsonParser parser, String prefix, int depth, Map<String, String> properties)
			throws DocumentRejectedException {
		int index = 0;
		while (parser.nextToken() != JsonToken.END_ARRAY) {
			readValue(parser, prefix + "[" + index++ + "]", depth, properties);
		}
	}

	private void readValue(JsonParser parser, String key, int depth, Map<String, String> properties)
			throws DocumentRejectedException {
		JsonToken token = parser.currentToken();
		switch (token) {
			case START_OBJECT -> readObject(parser, key, depth + 1, properties);
			case START_ARRAY -> readArray(parser, key, depth + 1, properties);
			case VALUE_NULL -> {
				// null means unset: the key stays out, so a lower source or the default applies
			}
			default -> {
				if (properties.putIfAbsent(key, parser.getText()) != null) {
					throw new DocumentRejectedException("the key '" + key + "' is defined twice", key);
				}
			}
		}
	}

	private static void validateName(String name, String prefix, String key) throws DocumentRejectedException {
		if (name.isEmpty()) {
			throw new DocumentRejectedException("the document has an empty key "
					+ (prefix.isEmpty() ? "at its root" : "under '" + prefix + "'"), key);
		}
		for (String segment : name.split("\\.", -1)) {
			if (!KEY_SEGMENT.matcher(segment).matches()) {
				throw new DocumentRejectedException("the key '" + key + "' cannot be bound: keys may contain "
						+ "letters, digits, '-' and '_', separated by single dots", key);
			}
		}
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
