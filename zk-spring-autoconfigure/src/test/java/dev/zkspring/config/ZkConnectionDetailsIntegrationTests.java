package dev.zkspring.config;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.bootstrap.BootstrapRegistry.InstanceSupplier;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.client.ZkConnectionDetails;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A {@link ZkConnectionDetails} wins over {@code zk.connect} (here an address where nothing listens): for
 * the auto-configured client, and for the config center's early client when it is registered before
 * any bean exists (in the context before refresh, or in Boot's bootstrap registry for {@code zk:}).
 */
class ZkConnectionDetailsIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path snapshots;

	private CuratorFramework writer;

	private String nowhere;

	@BeforeEach
	void setUp() throws Exception {
		this.writer = zk.newClient();
		this.nowhere = "127.0.0.1:" + freePort();
		write(this.writer, "/config/orders", "{\"shop\":{\"greeting\":\"from-details\"}}");
		write(this.writer, "/imported/orders", "{\"shop\":{\"greeting\":\"imported-from-details\"}}");
	}

	@AfterEach
	void cleanUp() throws Exception {
		ConfigTestSupport.deleteAll(this.writer, "/config");
		ConfigTestSupport.deleteAll(this.writer, "/imported");
	}

	@Test
	void theAutoConfiguredClientConnectsWhereTheDetailsSay() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withPropertyValues("zk.connect=" + this.nowhere, "zk.connection-timeout=2s", "zk.config.enabled=false")
			.withBean(ZkConnectionDetails.class, () -> zk::connectString)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(zk.connectString());
				assertThat(client.checkExists().forPath("/config/orders")).isNotNull();
			});
	}

	@Test
	void theInitializersEarlyClientUsesDetailsRegisteredBeforeRefresh() {
		ZkConnectionDetails details = zk::connectString;
		new ApplicationContextRunner()
			.withInitializer((context) -> context.getBeanFactory().registerSingleton("zkConnectionDetails", details))
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withUserConfiguration(ConfigTestSupport.ShopConfiguration.class)
			.withPropertyValues("zk.connect=" + this.nowhere, "zk.connection-timeout=2s",
					"zk.config.snapshot-dir=" + this.snapshots, "spring.application.name=orders")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("from-details");
				assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().getCurrentConnectionString())
					.isEqualTo(zk.connectString());
			});
	}

	@Test
	void theImportsEarlyClientUsesDetailsFromTheBootstrapRegistry() {
		ZkConnectionDetails details = zk::connectString;
		try (ConfigurableApplicationContext context = ImportTestSupport.run(
				(application) -> application.addBootstrapRegistryInitializer(
						(registry) -> registry.register(ZkConnectionDetails.class, InstanceSupplier.of(details))),
				"--spring.config.name=zk-import-tests", "--test.zk.connect=" + this.nowhere,
				"--test.snapshots=" + this.snapshots)) {
			assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("imported-from-details");
		}
	}

	@Test
	void detailsDefinedOnlyAsABeanComeTooLateForTheEarlyClientAndTheStartupSaysSo() {
		new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + this.snapshots,
					"spring.application.name=orders")
			.withUserConfiguration(ContainerConfiguration.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.isInstanceOf(ZkStartupException.class)
					.hasMessageContaining("ZkConnectionDetails [containerDetails]")
					.hasMessageContaining("created before any bean exists");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class ContainerConfiguration {

		@Bean
		ZkConnectionDetails containerDetails() {
			return zk::connectString;
		}

	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
