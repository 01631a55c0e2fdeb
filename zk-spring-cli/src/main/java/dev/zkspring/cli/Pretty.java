package dev.zkspring.cli;

import java.io.StringWriter;
import java.nio.charset.StandardCharsets;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.json.JsonMapper;

/** A document re-indented token by token, so every number keeps the exact text it was written with. */
final class Pretty {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private Pretty() {
	}

	static String print(byte[] document) {
		StringWriter text = new StringWriter();
		try (JsonParser parser = JSON.createParser(document);
				JsonGenerator generator = JSON.writerWithDefaultPrettyPrinter().createGenerator(text)) {
			for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
				switch (token) {
					case START_OBJECT -> generator.writeStartObject();
					case END_OBJECT -> generator.writeEndObject();
					case START_ARRAY -> generator.writeStartArray();
					case END_ARRAY -> generator.writeEndArray();
					case PROPERTY_NAME -> generator.writeName(parser.currentName());
					case VALUE_STRING -> generator.writeString(parser.getText());
					case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> generator.writeNumber(parser.getText());
					case VALUE_TRUE, VALUE_FALSE -> generator.writeBoolean(token == JsonToken.VALUE_TRUE);
					case VALUE_NULL -> generator.writeNull();
					default -> {
					}
				}
			}
		}
		catch (JacksonException ex) {
			// not JSON (written outside the tool): shown as it is
			return new String(document, StandardCharsets.UTF_8);
		}
		return text.toString();
	}

}
