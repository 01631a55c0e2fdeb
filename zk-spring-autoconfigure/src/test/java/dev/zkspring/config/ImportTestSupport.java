package dev.zkspring.config;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

	/** The server's count of client connections (its {@code srvr} four-letter word). */
	static int connections(ZooKeeperExtension zk) throws IOException {
		String port = zk.connectString().substring(zk.connectString().lastIndexOf(':') + 1);
		try (Socket socket = new Socket("127.0.0.1", Integer.parseInt(port))) {
			socket.setSoTimeout(2_000);
			OutputStream out = socket.getOutputStream();
			out.write("srvr".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			Matcher matcher = Pattern.compile("Connections: (\\d+)")
				.matcher(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII));
			if (!matcher.find()) {
				throw new IllegalStateException("no connection count from " + zk.connectString());
			}
			return Integer.parseInt(matcher.group(1));
		}
	}

}
