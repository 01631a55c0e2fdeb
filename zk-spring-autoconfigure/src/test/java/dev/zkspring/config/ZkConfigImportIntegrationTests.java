package dev.zkspring.config;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ConfigTestSupport.EventRecorder;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code spring.config.import=zk:}: loading, Boot's ordering, roots, one client and session, refresh. */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigImportIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/imported", "/config", "/team");

	@BeforeEach
	void setUp() throws Exception {
		write(app.writer(), "/imported/application", "{\"shop\":{\"from-application\":\"zk-application\"}}");
		write(app.writer(), "/imported/orders",
				"{\"shop\":{\"greeting\":\"zk-orders\",\"contested\":\"zk-orders\",\"cli\":\"zk-orders\",\"sys\":\"zk\"}}");
		write(app.writer(), "/imported/orders,dev", "{\"shop\":{\"greeting\":\"zk-orders-dev\"}}");
	}

	@Test
	void theImportInApplicationYmlLoadsWithZkSettingsFromThatFileAboveItAndBelowTheCommandLine() {
		System.setProperty("shop.sys", "from-system");
		try (ConfigurableApplicationContext context = ImportTestSupport.runImporting(app.zk(), app.snapshots(),
				"--shop.cli=from-command-line")) {
			ConfigurableEnvironment environment = context.getEnvironment();
			// zk.connect and zk.config.root (/imported) came from zk-import-tests.yml, the importing file
			assertThat(environment.getProperty("shop.greeting")).isEqualTo("zk-orders");
			assertThat(environment.getProperty("shop.from-application")).isEqualTo("zk-application");
			assertThat(environment.getProperty("shop.contested")).isEqualTo("zk-orders");
			assertThat(environment.getProperty("shop.packaged-only")).isEqualTo("from-yml");
			assertThat(environment.getProperty("shop.cli")).isEqualTo("from-command-line");
			assertThat(environment.getProperty("shop.sys")).isEqualTo("from-system");
			assertThat(context.getBean(ConfigTestSupport.ShopProperties.class).getGreeting()).isEqualTo("zk-orders");
			assertThat(names(environment)).containsSubsequence(ZkConfigInitializer.PROPERTY_SOURCE_NAME,
					"Config resource 'class path resource [zk-import-tests.yml]' via location 'optional:classpath:/'");
		}
		finally {
			System.clearProperty("shop.sys");
		}
	}

	@Test
	void profileDocumentsOfZooKeeperSitAboveTheOthersAndBootsProfileFileAboveTheImport() {
		try (ConfigurableApplicationContext context = ImportTestSupport.runImporting(app.zk(), app.snapshots(),
				"--spring.profiles.active=dev")) {
			ConfigurableEnvironment environment = context.getEnvironment();
			assertThat(environment.getProperty("shop.greeting")).isEqualTo("zk-orders-dev");
			assertThat(environment.getProperty("shop.profile-file")).isEqualTo("from-dev-yml");
			// Boot: a profile-specific file wins over what the non-profile file imports
			assertThat(environment.getProperty("shop.contested")).isEqualTo("from-dev-yml");
		}
	}

	@Test
	void anImportOnTheCommandLineReadsAnotherRootOrSeveralTheLastWinning() throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"zk-config\",\"only-config\":\"yes\"}}");
		write(app.writer(), "/team/orders", "{\"shop\":{\"greeting\":\"zk-team\"}}");
		String[] base = { "--spring.config.name=zk-config-tests", "--" + app.zk().connectProperty(),
				"--zk.config.snapshot-dir=" + app.snapshots() };
		try (ConfigurableApplicationContext context = ImportTestSupport.run((application) -> {
		}, concat(base, "--spring.config.import=zk:/team"))) {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("zk-team");
			assertThat(context.getEnvironment().getProperty("shop.only-config")).isNull();
		}
		try (ConfigurableApplicationContext context = ImportTestSupport.run((application) -> {
		}, concat(base, "--spring.config.import=zk:;/team"))) {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("zk-team");
			assertThat(context.getEnvironment().getProperty("shop.only-config")).isEqualTo("yes");
		}
		try (ConfigurableApplicationContext context = ImportTestSupport.run((application) -> {
		}, concat(base, "--spring.config.import=zk:/team;zk:/config"))) {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("zk-config");
		}
	}

	@Test
	void theImportsClientIsTheBootstrapClientTheOneBeanAndTheOneSessionAndTheInitializerStepsAside(
			CapturedOutput output) throws Exception {
		int before = connections();
		AtomicReference<CuratorFramework> bootstrapClient = new AtomicReference<>();
		try (ConfigurableApplicationContext context = ImportTestSupport.run(
				(application) -> application.addBootstrapRegistryInitializer((registry) -> registry
					.addCloseListener((event) -> bootstrapClient.set(event.getBootstrapContext().get(CuratorFramework.class)))),
				ImportTestSupport.withDefaults("zk-import-tests", app.zk(), app.snapshots()))) {
			assertThat(context.getBeansOfType(CuratorFramework.class)).hasSize(1);
			assertThat(context.getBean(CuratorFramework.class)).isSameAs(bootstrapClient.get());
			assertThat(context.getBeansOfType(ZkConfigWatcher.class)).hasSize(1);
			assertThat(connections()).isEqualTo(before + 1);
			assertThat(output).containsOnlyOnce("Loaded configuration from ZOOKEEPER for contexts");
			assertThat(names(context.getEnvironment())).containsOnlyOnce(ZkConfigInitializer.PROPERTY_SOURCE_NAME);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> connections() == before);
	}

	@Test
	void aChangeInZooKeeperRefreshesTheImportedSourceRebindsBeansAndIsPublished() throws Exception {
		EventRecorder events = new EventRecorder();
		try (ConfigurableApplicationContext context = ImportTestSupport.run((application) -> {
			application.addListeners(events);
			application.addPrimarySources(List.of(WithRefresh.class));
		},
				ImportTestSupport.withDefaults("zk-import-tests", app.zk(), app.snapshots()))) {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("zk-orders");
			write(app.writer(), "/imported/orders", "{\"shop\":{\"greeting\":\"changed\"}}");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "changed".equals(context.getEnvironment().getProperty("shop.greeting")));
			await().atMost(Duration.ofSeconds(10)).until(() -> !events.changes.isEmpty());
			// the refresher updates @RefreshScope beans as with the initializer
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "changed".equals(context.getBean(Greeter.class).greeting));
			try (var files = Files.list(app.snapshots())) {
				assertThat(files).as("the snapshot is written as with the initializer").isNotEmpty();
			}
			assertThat(events.changes.get(0).getKeys()).contains("shop.greeting");
			assertThat(context.getBean(ZkConfigStatus.class).getSource()).isEqualTo(ZkConfigStatus.Source.ZOOKEEPER);
			// the imported source kept its place: still above the packaged file
			assertThat(names(context.getEnvironment())).containsSubsequence(ZkConfigInitializer.PROPERTY_SOURCE_NAME,
					"Config resource 'class path resource [zk-import-tests.yml]' via location 'optional:classpath:/'");
		}
	}

	@Test
	void keysInZooKeeperThatWouldImportFilesOrActivateProfilesAreIgnored() throws Exception {
		write(app.writer(), "/imported/orders", "{\"shop\":{\"greeting\":\"zk-orders\"},\"spring\":{\"profiles\":"
				+ "{\"active\":\"dev\",\"include\":\"dev\"},\"config\":{\"import\":\"classpath:zk-import-tests-dev.yml\"}}}");
		try (ConfigurableApplicationContext context = ImportTestSupport.runImporting(app.zk(), app.snapshots())) {
			assertThat(context.getEnvironment().getActiveProfiles()).isEmpty();
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("zk-orders");
			assertThat(context.getEnvironment().getProperty("shop.profile-file")).isNull();
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(ZkRefreshAutoConfiguration.class)
	@Import(Greeter.class)
	static class WithRefresh {

	}

	@RefreshScope
	static class Greeter {

		@Value("${shop.greeting}")
		String greeting;

	}

	private static List<String> names(ConfigurableEnvironment environment) {
		return environment.getPropertySources().stream().map(PropertySource::getName).toList();
	}

	private static String[] concat(String[] base, String... more) {
		List<String> all = new java.util.ArrayList<>(List.of(base));
		all.addAll(List.of(more));
		return all.toArray(String[]::new);
	}

	private static int connections() throws IOException {
		return ImportTestSupport.connections(app.zk());
	}
}
