package dev.zkspring.publish;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A directory with one {@code CONTEXT.json} per context, so a Git repository can be the source of truth:
 * export writes each document as stored; import validates every file before writing any, then publishes
 * only the contexts whose keys differ from what is in force, each as a revision of its own.
 */
final class DirectorySync {

	static final String SUFFIX = ".json";

	private final ConfigPublisher publisher;

	DirectorySync(ConfigPublisher publisher) {
		this.publisher = publisher;
	}

	List<String> export(Path dir) throws Exception {
		Files.createDirectories(dir);
		List<String> exported = new ArrayList<>();
		for (String context : this.publisher.contexts()) {
			ConfigDocument document = this.publisher.get(context);
			if (document.exists() && document.data().length > 0) {
				Files.write(dir.resolve(context + SUFFIX), document.data());
				exported.add(context);
			}
		}
		return exported;
	}

	List<Publication> importFrom(Path dir, Change change) throws Exception {
		if (!Files.isDirectory(dir)) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "'" + dir + "' is not a directory: name the "
					+ "directory holding one CONTEXT.json file per context");
		}
		Map<String, byte[]> documents = new TreeMap<>();
		try (Stream<Path> files = Files.list(dir)) {
			for (Path file : files.filter((f) -> f.getFileName().toString().endsWith(SUFFIX)).sorted().toList()) {
				String name = file.getFileName().toString();
				String context = name.substring(0, name.length() - SUFFIX.length());
				byte[] data = read(file);
				try {
					this.publisher.validate(context, data);
				}
				catch (PublishException ex) {
					throw new PublishException(ex.reason(), "file " + file + ": " + ex.getMessage());
				}
				documents.put(context, data);
			}
		}
		List<Publication> publications = new ArrayList<>();
		for (Map.Entry<String, byte[]> entry : documents.entrySet()) {
			Publication preview = this.publisher.diff(entry.getKey(), entry.getValue());
			boolean exists = this.publisher.get(entry.getKey()).exists();
			if (exists && preview.diff().isEmpty()) {
				continue;
			}
			publications.add(this.publisher.publish(entry.getKey(), entry.getValue(), change.expecting(null), "import"));
		}
		return publications;
	}

	private static byte[] read(Path file) {
		try {
			return Files.readAllBytes(file);
		}
		catch (IOException ex) {
			throw new PublishException(PublishException.Reason.NOT_FOUND, "file " + file + " cannot be read ("
					+ ex.getClass().getSimpleName() + "): check that it exists and is readable");
		}
	}

}
