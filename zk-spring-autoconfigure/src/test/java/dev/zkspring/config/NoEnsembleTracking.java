package dev.zkspring.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import org.apache.curator.framework.CuratorFrameworkFactory;

import dev.zkspring.client.CuratorFrameworkCustomizer;

/**
 * Turns Curator's ensemble tracker off for the config center's client of one test application: a test that
 * reaches an ensemble through proxies must keep reaching it through them, and the tracker replaces the
 * connect string with the servers' own addresses as soon as it reads {@code /zookeeper/config}. Registered
 * the way a user registers such a customizer (META-INF/spring.factories), through a class loader of the test's
 * own so no other test sees it.
 */
public final class NoEnsembleTracking implements CuratorFrameworkCustomizer {

	@Override
	public void customize(CuratorFrameworkFactory.Builder builder) {
		builder.ensembleTracker(false);
	}

	/** A class loader that adds this customizer to the test class loader's spring.factories. */
	static ClassLoader classLoader(Path dir) {
		try {
			Path factories = Files.createDirectories(dir.resolve("no-ensemble-tracking/META-INF"))
				.resolve("spring.factories");
			Files.writeString(factories,
					CuratorFrameworkCustomizer.class.getName() + "=" + NoEnsembleTracking.class.getName() + "\n");
			URL extra = factories.toUri().toURL();
			return new ClassLoader(NoEnsembleTracking.class.getClassLoader()) {
				@Override
				public Enumeration<URL> getResources(String name) throws IOException {
					List<URL> urls = new ArrayList<>(Collections.list(super.getResources(name)));
					if ("META-INF/spring.factories".equals(name)) {
						urls.add(extra);
					}
					return Collections.enumeration(urls);
				}
			};
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
