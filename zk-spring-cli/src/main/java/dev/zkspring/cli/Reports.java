package dev.zkspring.cli;

import java.io.PrintWriter;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

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

	static String keys(KeyDiff diff) {
		List<String> keys = new ArrayList<>();
		diff.added().forEach((key) -> keys.add("+" + key));
		diff.removed().forEach((key) -> keys.add("-" + key));
		diff.changed().forEach((key) -> keys.add("~" + key));
		return keys.isEmpty() ? "-" : String.join(" ", keys);
	}

}
