package dev.zkspring.sample.e2e;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/** Debian's headless Chromium, to load a page as a browser renders it. */
final class Chromium {

	private Chromium() {
	}

	/** The chromium executable on the PATH; aborts (skips) the test with a clear message when there is none. */
	static Path find() {
		for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
			for (String name : List.of("chromium", "chromium-browser")) {
				Path candidate = Paths.get(dir, name);
				if (Files.isExecutable(candidate)) {
					return candidate;
				}
			}
		}
		Assumptions.abort("No Chromium on the PATH, so the status page cannot be checked in a browser: "
				+ "install it with 'apt-get install -y chromium' (.ci/run does)");
		throw new IllegalStateException("unreachable");
	}

	/** Loads the page and returns the DOM after the page's scripts ran. */
	static String dumpDom(Path chromium, URI page) throws IOException, InterruptedException {
		Path profile = Files.createTempDirectory("chromium-profile");
		Path out = Files.createTempFile("chromium-dom", ".html");
		try {
			Process process = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
					"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
					"--user-data-dir=" + profile, "--dump-dom", page.toString())
				.redirectOutput(out.toFile())
				.redirectError(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly();
				throw new IllegalStateException("Chromium did not render " + page + " within 60 s");
			}
			return Files.readString(out, StandardCharsets.UTF_8);
		}
		finally {
			Files.deleteIfExists(out);
			deleteRecursively(profile);
		}
	}

	/** Renders the page to a PNG file, as a browser window of the given size shows it. */
	static void screenshot(Path chromium, URI page, Path png, int width, int height)
			throws IOException, InterruptedException {
		Path profile = Files.createTempDirectory("chromium-profile");
		try {
			Files.createDirectories(png.toAbsolutePath().getParent());
			Process process = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
					"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
					"--hide-scrollbars", "--user-data-dir=" + profile, "--window-size=" + width + "," + height,
					"--screenshot=" + png.toAbsolutePath(), page.toString())
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.redirectError(ProcessBuilder.Redirect.DISCARD)
				.start();
			if (!process.waitFor(60, TimeUnit.SECONDS)) {
				process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
				process.destroyForcibly();
				throw new IllegalStateException("Chromium did not render " + page + " within 60 s");
			}
			if (!Files.isRegularFile(png) || Files.size(png) == 0) {
				throw new IllegalStateException("Chromium wrote no screenshot of " + page + " to " + png);
			}
		}
		finally {
			deleteRecursively(profile);
		}
	}

	private static void deleteRecursively(Path dir) throws IOException {
		try (Stream<Path> paths = Files.walk(dir)) {
			paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
		}
	}

}
