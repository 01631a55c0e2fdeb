package dev.zkspring.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The user documentation as the docs check reads it: {@code README.md} and every {@code docs/*.md} of the
 * repository this module sits in, with the lines inside fenced code blocks told apart from prose.
 */
final class DocsFiles {

	private DocsFiles() {
	}

	/** The repository's root: this module's parent directory. */
	static Path root() {
		return Path.of(System.getProperty("basedir", ".")).toAbsolutePath().normalize().getParent();
	}

	/** {@code README.md}, {@code CHANGELOG.md}, then {@code docs/*.md} by name. */
	static List<Path> pages() {
		List<Path> pages = new ArrayList<>();
		pages.add(root().resolve("README.md"));
		pages.add(root().resolve("CHANGELOG.md"));
		try (Stream<Path> docs = Files.list(root().resolve("docs"))) {
			docs.filter((path) -> path.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	static String read(Path path) {
		try {
			return Files.readString(path);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** A page's path as the failure messages name it, relative to the repository's root. */
	static String name(Path path) {
		return root().relativize(path).toString();
	}

	/** The page's text with every fenced code block blanked out (line count kept), for links and headings. */
	static String prose(String markdown) {
		StringBuilder prose = new StringBuilder();
		boolean fenced = false;
		for (String line : markdown.split("\n", -1)) {
			if (line.startsWith("```")) {
				fenced = !fenced;
				prose.append('\n');
				continue;
			}
			prose.append(fenced ? "" : line).append('\n');
		}
		return prose.toString();
	}

}
