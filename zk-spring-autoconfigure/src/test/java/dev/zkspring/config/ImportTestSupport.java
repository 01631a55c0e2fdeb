package dev.zkspring.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.config.ConfigTestSupport.ShopConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

/** Real application starts for the {@code spring.config.import=zk:} tests. */
final class ImportTestSupport {

	private ImportTestSupport() {
	}

	/**
	 * Start with {@code zk-import-tests.yml} (which imports {@code zk:} itself, root {@code /imported}) as the
	 * packaged configuration; the test's ensemble and snapshot directory reach it as placeholders.
	 */
	static ConfigurableApplicationContext runImporting(ZooKeeperExtension zk, Path snapshots, String... args) {
		return run((application) -> {
		}, withDefaults("zk-import-tests", zk, snapshots, args));
	}

	static ConfigurableApplicationContext run(Consumer<SpringApplication> customizer, String... args) {
		SpringApplication application = new SpringApplication(ShopConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		customizer.accept(application);
		return application.run(args);
	}

	/** Command-line arguments naming the packaged configuration, the ensemble and the snapshot directory. */
	static String[] withDefaults(String configName, ZooKeeperExtension zk, Path snapshots, String... args) {
		List<String> all = new ArrayList<>(List.of("--spring.config.name=" + configName,
				"--test.zk.connect=" + zk.connectString(), "--test.snapshots=" + snapshots,
				"--zk.config.snapshot-dir=" + snapshots));
		all.addAll(List.of(args));
		return all.toArray(String[]::new);
	}

}
