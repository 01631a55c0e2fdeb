package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.context.event.ApplicationEnvironmentPreparedEvent;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** {@code spring.config.import=zk:} when things go wrong: ZooKeeper down, bad documents, bad locations; and logging. */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigImportFailureTests {

	/** A server of each test's own, as tests stop it. */
	@RegisterExtension
	final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path snapshots;

	@Test
	void anOptionalImportStartsWhileZooKeeperIsDownAndLoadsWhenItConnects() throws Exception {
		write(this.zk.newClient(), "/config/orders", "{\"shop\":{\"greeting\":\"from-zk\"}}");
		this.zk.stopServer();
		try (ConfigurableApplicationContext context = start("--spring.config.import=optional:zk:")) {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("from-yml");
			assertThat(context.getBean(ZkConfigStatus.class).getSource()).isEqualTo(ZkConfigStatus.Source.NONE);
			this.zk.restartServer();
			await().atMost(Duration.ofSeconds(20))
				.until(() -> "from-zk".equals(context.getEnvironment().getProperty("shop.greeting")));
			assertThat(context.getBean(ZkConfigStatus.class).getSource()).isEqualTo(ZkConfigStatus.Source.ZOOKEEPER);
		}
	}

	@Test
	void aRequiredImportFailsTheStartupNamingTheEnsembleAndTheTimeout(CapturedOutput output) throws Exception {
		this.zk.stopServer();
		assertThatThrownBy(() -> start("--spring.config.import=zk:").close())
			.isInstanceOfSatisfying(ZkStartupException.class, (ex) -> {
				assertThat(ex.getDescription()).contains("ZooKeeper at '" + this.zk.connectString() + "'")
					.contains("within PT1S (zk.connection-timeout)")
					.contains("no configuration snapshot");
				assertThat(ex.getAction()).contains("zk.connect");
			});
		assertThat(output).contains("APPLICATION FAILED TO START").contains(this.zk.connectString());
	}

	@Test
	void aMalformedDocumentFailsTheStartupAsWithTheInitializer() throws Exception {
		write(this.zk.newClient(), "/config/orders", "{\"shop\": not json");
		assertThatThrownBy(() -> start("--spring.config.import=zk:").close())
			.isInstanceOfSatisfying(ZkStartupException.class, (ex) -> assertThat(ex.getDescription())
				.contains("The configuration in znode /config/orders (version 0) was rejected"));
	}

	@Test
	void logLevelsFromZooKeeperApplyFromTheFirstLineLoggedOnlyWithTheImport(CapturedOutput output) throws Exception {
		write(this.zk.newClient(), "/config/orders", "{\"logging\":{\"level\":{\"dev.zkspring.demo.early\":\"debug\"}}}");
		try (ConfigurableApplicationContext context = start(new EarlyLine("with the import"),
				"--spring.config.import=zk:")) {
			assertThat(output).contains("early line with the import");
		}
		try (ConfigurableApplicationContext context = start(new EarlyLine("with the initializer"))) {
			// the initializer loads after logging is set up: the level comes too late for this line
			assertThat(context.getEnvironment().getProperty("logging.level[dev.zkspring.demo.early]")).isEqualTo("debug");
			assertThat(output).doesNotContain("early line with the initializer");
		}
	}

	@Test
	void aFailingLocatorIsReportedOnceLoggingIsSetUpNamingItsClassNotItsMessage() throws Exception {
		// a JVM of its own: in this one, logging was set up by an earlier start and holds nothing back
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process process = new ProcessBuilder(java, "-Xmx192m", "-cp", System.getProperty("java.class.path"),
				ImportStartupLogMain.class.getName(), "--spring.config.name=zk-config-tests",
				"--" + this.zk.connectProperty(), "--zk.config.snapshot-dir=" + this.snapshots,
				"--spring.config.import=zk:", "--zk.config.fail-fast=false", "--test.locator.enabled=true",
				"--test.locator.fail=true")
			.redirectErrorStream(true)
			.start();
		String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).as(output).isZero();
		// the startup's own report (on main; the watcher's re-read after ready reports it again on its thread)
		assertThat(output.lines()).as(output)
			.anyMatch((line) -> line.contains(" main] ") && line.contains("Config locator "
					+ TestPropertySourceLocator.class.getName() + " failed (java.lang.IllegalStateException)"));
		assertThat(output).doesNotContain(BadDocument.SECRET);
	}

	@Test
	void importingZooKeeperTwiceFailsSayingToListTheRootsInOneLocationAndClosesTheFirstClient() throws Exception {
		int before = ImportTestSupport.connections(this.zk);
		assertThatThrownBy(() -> start("--spring.config.import=zk:,zk:/team").close())
			.isInstanceOfSatisfying(ZkStartupException.class, (ex) -> {
				assertThat(ex.getDescription()).contains("names ZooKeeper more than once");
				assertThat(ex.getAction()).contains("zk:/a;/b");
			});
		// the first import's client was never taken over by a context: the failed startup closed it
		await().atMost(Duration.ofSeconds(10)).until(() -> ImportTestSupport.connections(this.zk) == before);
	}

	@Test
	void aLocationNamingAHostFailsSayingTheEnsembleComesFromZkConnect() {
		assertThatThrownBy(() -> start("--spring.config.import=zk:localhost:2181").close())
			.isInstanceOfSatisfying(ZkStartupException.class, (ex) -> {
				assertThat(ex.getDescription()).contains("'zk:localhost:2181'").contains("not a znode path");
				assertThat(ex.getAction()).contains("zk.connect");
			});
	}

	private ConfigurableApplicationContext start(String... args) {
		return start(null, args);
	}

	private ConfigurableApplicationContext start(EarlyLine listener, String... args) {
		List<String> all = new ArrayList<>(List.of("--spring.config.name=zk-config-tests",
				"--" + this.zk.connectProperty(), "--zk.connection-timeout=1s",
				"--zk.config.snapshot-dir=" + this.snapshots));
		all.addAll(List.of(args));
		return ImportTestSupport.run((application) -> {
			if (listener != null) {
				application.addListeners(listener);
			}
		}, all.toArray(String[]::new));
	}

	/** Logs at DEBUG as soon as the environment is prepared, right after Boot set up logging. */
	private record EarlyLine(String when) implements ApplicationListener<ApplicationEvent> {

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			if (event instanceof ApplicationEnvironmentPreparedEvent) {
				LogFactory.getLog("dev.zkspring.demo.early").debug("early line " + this.when);
			}
		}

	}

}
