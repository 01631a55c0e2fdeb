package dev.zkspring.config;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

/**
 * The last-known-good configuration on local disk: the accepted context documents (flattened), written
 * atomically (temporary file, then move) and readable by the owner only, because values may be
 * secrets. Read only when ZooKeeper cannot be reached at startup.
 */
final class ConfigSnapshotStore {

	private static final JsonMapper mapper = JsonMapper.builder().build();

	private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

	private final Path file;

	private @Nullable List<String> lastWritten;

	ConfigSnapshotStore(Path file) {
		this.file = file;
	}

	/** The snapshot of one application and its profiles, in the configured or default directory. */
	static ConfigSnapshotStore forApplication(@Nullable Path directory, ConfigContexts contexts, String separator) {
		Path dir = (directory != null) ? directory
				: Path.of(System.getProperty("user.home"), ".zk-spring", "config-snapshots");
		String name = contexts.name();
		if (!contexts.profiles().isEmpty()) {
			name = name + separator + String.join(",", contexts.profiles());
		}
		return new ConfigSnapshotStore(dir.resolve(name.replaceAll("[^A-Za-z0-9._,-]", "_") + ".json"));
	}

	Path file() {
		return this.file;
	}

	/**
	 * Write the accepted sources, unless they are the ones written last.
	 * @return whether the file was written
	 */
	synchronized boolean write(List<ZnodePropertySource> sources) throws IOException {
		List<String> signature = sources.stream().map((source) -> source.getZnode() + "@" + source.getVersion()).toList();
		if (signature.equals(this.lastWritten) && Files.exists(this.file)) {
			return false;
		}
		List<Map<String, Object>> contexts = new ArrayList<>();
		for (ZnodePropertySource source : sources) {
			Map<String, Object> context = new LinkedHashMap<>();
			context.put("znode", source.getZnode());
			context.put("version", source.getVersion());
			context.put("properties", source.getSource());
			contexts.add(context);
		}
		byte[] json = mapper.writeValueAsBytes(Map.of("contexts", contexts));
		Path directory = this.file.toAbsolutePath().getParent();
		if (!Files.isDirectory(directory)) {
			Files.createDirectories(directory, ownerOnly("rwx------"));
		}
		Path temporary = Files.createTempFile(directory, this.file.getFileName().toString(), ".tmp", ownerOnly("rw-------"));
		try {
			Files.write(temporary, json);
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
	 * @throws IOException when it exists but cannot be read or parsed
	 */
	@Nullable List<ZnodePropertySource> read() throws IOException {
		if (!Files.isRegularFile(this.file)) {
			return null;
		}
		try {
			Map<?, ?> snapshot = mapper.readValue(Files.readAllBytes(this.file), Map.class);
			List<ZnodePropertySource> sources = new ArrayList<>();
			for (Object entry : (List<?>) snapshot.get("contexts")) {
				Map<?, ?> context = (Map<?, ?>) entry;
				Map<String, String> properties = new LinkedHashMap<>();
				((Map<?, ?>) context.get("properties")).forEach((key, value) -> properties.put((String) key, (String) value));
				sources.add(new ZnodePropertySource((String) context.get("znode"), ((Number) context.get("version")).intValue(),
						properties));
			}
			return sources;
		}
		catch (RuntimeException ex) {
			throw new IOException("the snapshot " + this.file + " is not a zk-spring configuration snapshot", ex);
		}
	}

	private static FileAttribute<?>[] ownerOnly(String permissions) {
		if (!POSIX) {
			return new FileAttribute<?>[0];
		}
		return new FileAttribute<?>[] { PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions)) };
	}

}
