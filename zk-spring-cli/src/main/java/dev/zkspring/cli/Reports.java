package dev.zkspring.cli;

import java.io.PrintWriter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.zkspring.publish.KeyDiff;
import dev.zkspring.publish.Publication;
import dev.zkspring.publish.Revision;

/** How results read on the terminal: keys, never values unless asked for. */
final class Reports {

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
		.withZone(ZoneOffset.UTC);

	private Reports() {
	}

	static void diff(PrintWriter out, Publication publication, boolean showValues) {
		KeyDiff diff = publication.diff();
		for (String key : diff.added()) {
			out.println("+ " + key + (showValues ? " = " + publication.after().get(key) : ""));
		}
		for (String key : diff.removed()) {
			out.println("- " + key + (showValues ? " = " + publication.before().get(key) : ""));
		}
		for (String key : diff.changed()) {
			out.println("~ " + key + (showValues
					? ": " + publication.before().get(key) + " -> " + publication.after().get(key) : ""));
		}
	}

	static void history(PrintWriter out, List<Revision> revisions) {
		out.println(String.format("%-8s %-8s %-20s %-16s %-30s %s", "REVISION", "VERSION", "TIME", "AUTHOR", "MESSAGE",
				"KEYS"));
		for (Revision revision : revisions) {
			out.println(String.format("%-8d %-8d %-20s %-16s %-30s %s", revision.revision(), revision.version(),
					TIME.format(revision.time()), revision.author(),
					(revision.message() != null) ? revision.message() : "-", keys(revision.keys())));
		}
	}

	/** A revision with the field names of {@code config history --output json}; never its document. */
	static Map<String, Object> revision(Revision revision) {
		Map<String, Object> entry = new LinkedHashMap<>();
		entry.put("revision", revision.revision());
		entry.put("version", revision.version());
		entry.put("time", revision.time().toString());
		entry.put("author", revision.author());
		entry.put("message", revision.message());
		entry.put("kind", revision.kind());
		entry.put("added", revision.keys().added());
		entry.put("removed", revision.keys().removed());
		entry.put("changed", revision.keys().changed());
		return entry;
	}

	/** A diff's keys with the field names of {@code --output json}; values only when asked for. */
	static Map<String, Object> keys(Publication publication, boolean showValues) {
		Map<String, Object> entry = new LinkedHashMap<>();
		entry.put("added", publication.diff().added());
		entry.put("removed", publication.diff().removed());
		entry.put("changed", publication.diff().changed());
		if (showValues) {
			Map<String, Object> values = new LinkedHashMap<>();
			java.util.stream.Stream.of(publication.diff().added(), publication.diff().removed(),
					publication.diff().changed()).flatMap(List::stream).sorted().forEach((key) -> {
						Map<String, Object> pair = new LinkedHashMap<>();
						pair.put("before", publication.before().get(key));
						pair.put("after", publication.after().get(key));
						values.put(key, pair);
					});
			entry.put("values", values);
		}
		return entry;
	}

	static String keys(KeyDiff diff) {
		List<String> keys = new ArrayList<>();
		diff.added().forEach((key) -> keys.add("+" + key));
		diff.removed().forEach((key) -> keys.add("-" + key));
		diff.changed().forEach((key) -> keys.add("~" + key));
		return keys.isEmpty() ? "-" : String.join(" ", keys);
	}

}
