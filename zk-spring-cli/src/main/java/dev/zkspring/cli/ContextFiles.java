package dev.zkspring.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import dev.zkspring.publish.PublishException;

/**
 * A directory of context documents as {@code config validate} and {@code config apply} read it: one
 * {@code CONTEXT.json} per context ({@code orders,prod.json} for a profile context), as {@code config import} and
 * {@code config export} name them; other files are not contexts.
 */
final class ContextFiles {

	static final String SUFFIX = ".json";

	private ContextFiles() {
	}

	/** The context files of a directory, by context name in order. */
	static Map<String, Path> list(Path dir) throws IOException {
		if (!Files.isDirectory(dir)) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "'" + dir + "' is not a directory: name the "
					+ "directory holding one CONTEXT.json file per context");
		}
		Map<String, Path> files = new TreeMap<>();
		try (Stream<Path> listed = Files.list(dir)) {
			listed.filter((file) -> file.getFileName().toString().endsWith(SUFFIX) && Files.isRegularFile(file))
				.forEach((file) -> {
					String name = file.getFileName().toString();
					files.put(name.substring(0, name.length() - SUFFIX.length()), file);
				});
		}
		return files;
	}

	/** A file's bytes. */
	static byte[] read(Path file) {
		try {
			return Files.readAllBytes(file);
		}
		catch (IOException ex) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "file " + file + " cannot be read ("
					+ ex.getClass().getSimpleName() + "): check that it exists and is readable");
		}
	}

}
