package dev.zkspring.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The last-known-good configuration on local disk: the accepted context documents (flattened, their
 * {@code {cipher}} values as stored: ciphertext, which {@link #read} returns for decrypting again),
 * written atomically (a new temporary file written through the handle that created it, then moved)
 * and readable by the owner only, because values may be secrets. Its name identifies the application,
 * its profiles and, by a digest, the ensemble, namespace, root and contexts, so two applications of
 * one name on one host never share a file. Read only when ZooKeeper cannot be reached at startup, and
 * only when {@link SnapshotFiles} finds it is ours.
 */
final class ConfigSnapshotStore {

	private static final JsonMapper mapper = JsonMapper.builder().build();

	private final Path file;

	private final boolean enabled;

	private @Nullable List<List<Object>> lastWritten;

	ConfigSnapshotStore(Path file) {
		this(file, true);
	}

	private ConfigSnapshotStore(Path file, boolean enabled) {
		this.file = file;
		this.enabled = enabled;
	}

	/** The same file, never read nor written ({@code zk.config.snapshot-enabled=false}, as in tests). */
	ConfigSnapshotStore disabled() {
		return new ConfigSnapshotStore(this.file, false);
	}

	boolean enabled() {
		return this.enabled;
	}

	/**
	 * The snapshot of one application, its profiles and where it reads them from.
	 * @param directory the configured directory, or {@code null} for the default
	 * @param contexts the application's contexts (root and znodes)
	 * @param separator the profile separator
	 * @param connectString the ensemble
	 * @param namespace the client's namespace, if any
	 */
	static ConfigSnapshotStore forApplication(@Nullable Path directory, ConfigContexts contexts, String separator,
			String connectString, @Nullable String namespace) {
		Path dir = (directory != null) ? directory
				: Path.of(System.getProperty("user.home"), ".zk-spring", "config-snapshots");
		String name = contexts.name();
		if (!contexts.profiles().isEmpty()) {
			name = name + separator + String.join(",", contexts.profiles());
		}
		String identity = String.join("\n", ensemble(connectString), String.valueOf(namespace), contexts.root(),
				String.join(",", contexts.lowestFirst()));
		return new ConfigSnapshotStore(
				dir.resolve(name.replaceAll("[^A-Za-z0-9._,-]", "_") + "-" + digest(identity) + ".json"));
	}

	/** The hosts in a stable order (a reordered connect string is the same ensemble), then the chroot. */
	private static String ensemble(String connectString) {
		int slash = connectString.indexOf('/');
		String hosts = (slash >= 0) ? connectString.substring(0, slash) : connectString;
		String chroot = (slash >= 0) ? connectString.substring(slash) : "";
		List<String> sorted = new ArrayList<>();
		for (String host : hosts.split(",")) {
			sorted.add(host.trim().toLowerCase(java.util.Locale.ROOT));
		}
		sorted.sort(null);
		return String.join(",", sorted) + chroot;
	}

	private static String digest(String identity) {
		try {
			byte[] hash = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(hash, 0, 6);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	Path file() {
		return this.file;
	}

	/**
	 * Write the accepted sources, unless they are the ones written last.
	 * @return whether the file was written
	 */
	synchronized boolean write(List<ZnodePropertySource> sources) throws IOException {
		if (!this.enabled) {
			return false;
		}
		// by content too: a node deleted and created again starts at version 0 again
		List<List<Object>> signature = sources.stream()
			.map((source) -> List.<Object>of(source.getZnode(), source.getVersion(), source.stored(),
					String.valueOf(source.getCandidate())))
			.toList();
		if (signature.equals(this.lastWritten) && Files.exists(this.file, LinkOption.NOFOLLOW_LINKS)) {
			return false;
		}
		List<Map<String, Object>> contexts = new ArrayList<>();
		for (ZnodePropertySource source : sources) {
			Map<String, Object> context = new LinkedHashMap<>();
			context.put("znode", source.getZnode());
			context.put("version", source.getVersion());
			context.put("properties", source.stored());
			ZnodePropertySource.Candidate candidate = source.getCandidate();
			if (candidate != null) {
				// which it is: this instance ran a canary's candidate for this context, not its base document
				Map<String, Object> canary = new LinkedHashMap<>();
				canary.put("znode", candidate.znode());
				canary.put("version", candidate.version());
				canary.put("revision", candidate.revision());
				if (candidate.digest() != null) {
					canary.put("digest", candidate.digest());
				}
				context.put("canary", canary);
			}
			contexts.add(context);
		}
		byte[] json = mapper.writeValueAsBytes(Map.of("contexts", contexts));
		Path directory = SnapshotFiles.directoryToWrite(this.file);
		Path temporary = directory.resolve("." + this.file.getFileName() + "." + UUID.randomUUID() + ".tmp");
		try {
			// created new (never an existing file or link), owner-only, and written through this one handle
			try (SeekableByteChannel channel = Files.newByteChannel(temporary,
					Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
					SnapshotFiles.ownerOnly("rw-------"))) {
				ByteBuffer buffer = ByteBuffer.wrap(json);
				while (buffer.hasRemaining()) {
					channel.write(buffer);
				}
			}
			try {
				Files.move(temporary, this.file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
			}
			catch (AtomicMoveNotSupportedException ex) {
				Files.move(temporary, this.file, StandardCopyOption.REPLACE_EXISTING);
			}
		}
		finally {
			Files.deleteIfExists(temporary);
		}
		this.lastWritten = signature;
		return true;
	}

	/**
	 * Read the snapshot.
	 * @return its sources, the highest precedence first, or {@code null} when there is none
	 * @throws IOException when it exists but is not ours (a link, another owner, loose permissions, a
	 * directory others may write), or cannot be read or parsed
	 */
	@Nullable List<ZnodePropertySource> read() throws IOException {
		if (!this.enabled) {
			return null;
		}
		byte[] content = SnapshotFiles.readOurs(this.file);
		if (content == null) {
			return null;
		}
		try {
			Map<?, ?> snapshot = mapper.readValue(content, Map.class);
			List<ZnodePropertySource> sources = new ArrayList<>();
			for (Object entry : (List<?>) snapshot.get("contexts")) {
				Map<?, ?> context = (Map<?, ?>) entry;
				Map<String, String> properties = new LinkedHashMap<>();
				((Map<?, ?>) context.get("properties")).forEach((key, value) -> properties.put((String) key, (String) value));
				ZnodePropertySource.Candidate candidate = null;
				if (context.get("canary") instanceof Map<?, ?> canary) {
					candidate = new ZnodePropertySource.Candidate((String) canary.get("znode"),
							((Number) canary.get("version")).intValue(), ((Number) canary.get("revision")).longValue(),
							(canary.get("digest") instanceof String digest) ? digest : null);
				}
				sources.add(new ZnodePropertySource((String) context.get("znode"), ((Number) context.get("version")).intValue(),
						properties, candidate));
			}
			return sources;
		}
		catch (StreamReadException ex) {
			// no cause, no parser message: they may quote the file's content; the position is safe
			throw new IOException("the snapshot " + this.file + " exists but is unreadable: "
					+ ((ex instanceof UnexpectedEndOfInputException) ? "it is truncated (its JSON ends early"
							: "it is not valid JSON (" + ex.getClass().getSimpleName())
					+ " at byte " + ex.getLocation().getByteOffset() + " of " + content.length + ")");
		}
		catch (RuntimeException ex) {
			throw new IOException("the snapshot " + this.file + " exists but is unreadable: it is JSON but not a "
					+ "zk-spring configuration snapshot (" + ex.getClass().getName() + ")");
		}
	}

}
