package dev.zkspring.config;

import java.io.IOException;
import java.net.ServerSocket;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

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
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A {@link ZkConnectionDetails} wins over {@code zk.connect} (here an address where nothing listens): for
 * the auto-configured client, and for the config center's early client when it is registered before
 * any bean exists (in the context before refresh, or in Boot's bootstrap registry for {@code zk:}).
 */
class ZkConnectionDetailsIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config", "/imported");

	private String nowhere;

	@BeforeEach
	void setUp() throws Exception {
		this.nowhere = "127.0.0.1:" + freePort();
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"from-details\"}}");
		write(app.writer(), "/imported/orders", "{\"shop\":{\"greeting\":\"imported-from-details\"}}");
	}

	@Test
	void theAutoConfiguredClientConnectsWhereTheDetailsSay() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withPropertyValues("zk.connect=" + this.nowhere, "zk.connection-timeout=2s", "zk.config.enabled=false")
			.withBean(ZkConnectionDetails.class, () -> app.zk()::connectString)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(app.zk().connectString());
				assertThat(client.checkExists().forPath("/config/orders")).isNotNull();
			});
	}

	@Test
	void theInitializersEarlyClientUsesDetailsRegisteredBeforeRefresh() {
		ZkConnectionDetails details = app.zk()::connectString;
		new ApplicationContextRunner()
			.withInitializer((context) -> context.getBeanFactory().registerSingleton("zkConnectionDetails", details))
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withUserConfiguration(ConfigTestSupport.ShopConfiguration.class)
			.withPropertyValues("zk.connect=" + this.nowhere, "zk.connection-timeout=2s",
					"zk.config.snapshot-dir=" + app.snapshots(), "spring.application.name=orders")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("from-details");
				assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().getCurrentConnectionString())
					.isEqualTo(app.zk().connectString());
			});
	}

	@Test
	void theImportsEarlyClientUsesDetailsFromTheBootstrapRegistry() {
		ZkConnectionDetails details = app.zk()::connectString;
		try (ConfigurableApplicationContext context = ImportTestSupport.run(
				(application) -> application.addBootstrapRegistryInitializer(
						(registry) -> registry.register(ZkConnectionDetails.class, InstanceSupplier.of(details))),
				"--spring.config.name=zk-import-tests", "--test.zk.connect=" + this.nowhere,
				"--test.snapshots=" + app.snapshots())) {
			assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("imported-from-details");
		}
	}

	@Test
	void detailsDefinedOnlyAsABeanComeTooLateForTheEarlyClientAndTheStartupSaysSo() {
		new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withPropertyValues(app.zk().connectProperty(), "zk.config.snapshot-dir=" + app.snapshots(),
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
			return app.zk()::connectString;
		}

	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
