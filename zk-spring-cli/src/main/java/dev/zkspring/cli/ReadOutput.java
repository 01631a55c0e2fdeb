package dev.zkspring.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Map;

import picocli.CommandLine.Option;
import tools.jackson.databind.json.JsonMapper;

/** {@code --output table|json} of the read commands: a table for people, JSON with stable field names for scripts. */
final class ReadOutput {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	/** The two forms. */
	enum Form {

		table, json

	}

	@Option(names = "--output", paramLabel = "table|json", defaultValue = "table",
			description = "table (default) or json, whose field names are stable (see docs/operator-cli.md).")
	Form output = Form.table;

	boolean json() {
		return this.output == Form.json;
	}

	static void printJson(PrintWriter out, Map<String, Object> body) {
		out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(body));
	}

	/** Epoch milliseconds as an ISO-8601 instant, or {@code null}. */
	static @org.jspecify.annotations.Nullable String instant(@org.jspecify.annotations.Nullable Object millis) {
		return (millis instanceof Number number) ? Instant.ofEpochMilli(number.longValue()).toString() : null;
	}

	static String orDash(@org.jspecify.annotations.Nullable Object value) {
		return (value != null) ? String.valueOf(value) : "-";
	}

}
