package dev.zkspring.publish;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
 * the contexts whose keys differ from what is in force, each as a revision of its own, all in one
 * transaction: every context or none.
 */
final class DirectorySync {

	static final String SUFFIX = ".json";

	/** What one transaction may carry: the client's packet limit, less room for the request's framing. */
	static final long TRANSACTION_BYTES = Integer.getInteger("jute.maxbuffer", 0xfffff) - 64 * 1024;

	private final ConfigPublisher publisher;

	private final HistoryStore store;

	private final long maxBytes;

	private final Runnable beforeWrite;

	DirectorySync(ConfigPublisher publisher, HistoryStore store, long maxBytes, Runnable beforeWrite) {
		this.publisher = publisher;
		this.store = store;
		this.maxBytes = maxBytes;
		this.beforeWrite = beforeWrite;
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
		List<HistoryStore.Prepared> writes = new ArrayList<>();
		long bytes = 0;
		for (Map.Entry<String, byte[]> entry : documents.entrySet()) {
			String context = entry.getKey();
			byte[] document = entry.getValue();
			Map<String, String> after = this.publisher.validate(context, document);
			ContextState state = this.store.read(context);
			Map<String, String> before = state.flat(this.maxBytes);
			KeyDiff diff = KeyDiff.between(before, after);
			if (state.exists() && diff.isEmpty()) {
				continue;
			}
			if (change.dryRun()) {
				publications.add(new Publication(context, false, -1, state.version(), diff, before, after));
				continue;
			}
			HistoryStore.Prepared write = this.store.prepare(state, document,
					new String(document, StandardCharsets.UTF_8), diff, change.expecting(null), "import",
					(op) -> List.of(), null);
			writes.add(write);
			bytes += write.bytes();
			publications.add(new Publication(context, true, write.published().revision(), write.published().version(),
					diff, before, after));
		}
		if (bytes > TRANSACTION_BYTES) {
			throw new PublishException(PublishException.Reason.INVALID, "the import of " + writes.size()
					+ " contexts takes about " + bytes + " bytes, more than one ZooKeeper transaction carries ("
					+ TRANSACTION_BYTES + " bytes, within jute.maxbuffer): import the files in smaller groups, each "
					+ "directory all or nothing; nothing was written");
		}
		if (!writes.isEmpty()) {
			this.beforeWrite.run();
			// every context or none: a refusal of the last one leaves the first ones as they were
			this.store.commit(writes);
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
