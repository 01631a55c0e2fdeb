package dev.zkspring.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * Before any test context starts, plants in the test JVM's home (the surefire fork's {@code user.home})
 * the snapshot the shop application would start from if it could not reach its configured
 * {@code zk.connect}: a developer's leftover. Written with the library's own store, so it is exactly
 * the file it would read; every value in it is {@link #STALE}.
 */
public class PlantStaleSnapshot implements LauncherSessionListener {

	/** The configured ensemble of the shop application (application.yml), where nothing listens. */
	public static final String CONNECT = "127.0.0.1:1";

	public static final String STALE = "stale-from-snapshot";

	@Override
	public void launcherSessionOpened(LauncherSession session) {
		try {
			file();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** The planted snapshot (planted on first call). */
	public static synchronized Path file() throws IOException {
		ConfigSettings settings = ConfigSettings.bind(new Binder(new MapConfigurationPropertySource(Map.of("zk.connect", CONNECT))));
		ConfigContexts contexts = ConfigContexts.of(settings, "shop", List.of());
		ConfigSnapshotStore store = ConfigSnapshotStore.forApplication(null, contexts, ",", CONNECT, null);
		if (!Files.exists(store.file())) {
			store.write(List.of(new ZnodePropertySource("/config/shop", 7,
					Map.of("shop.greeting", STALE, "shop.limits.max", "99", "shop.currency", STALE))));
		}
		return store.file();
	}

	/** Every file in the snapshot directory: the planted one only, or a test context wrote one. */
	public static List<Path> snapshotDirectory() throws IOException {
		try (var files = Files.list(file().getParent())) {
			return files.toList();
		}
	}

}
