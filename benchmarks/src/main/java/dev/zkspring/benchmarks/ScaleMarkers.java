package dev.zkspring.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The scale section's bounds in RESULTS.md, so a scale-only run replaces that section and keeps the
 * rest of the file (the other benchmarks' last full run).
 */
final class ScaleMarkers {

	static final String BEGIN = "<!-- scale:begin (written by BenchmarkMain --scale) -->";

	static final String END = "<!-- scale:end -->";

	private ScaleMarkers() {
	}

	/** Put {@code section} (which starts and ends with the markers) in place of the file's scale section, or at its end. */
	static void splice(Path file, String section) throws IOException {
		String existing = Files.exists(file) ? Files.readString(file) : "";
		int begin = existing.indexOf(BEGIN);
		int end = existing.indexOf(END);
		String updated;
		if (begin >= 0 && end > begin) {
			updated = existing.substring(0, begin) + section.strip() + existing.substring(end + END.length());
		}
		else {
			updated = existing.stripTrailing() + "\n\n" + section.strip() + "\n";
		}
		Files.writeString(file, updated);
	}

}
