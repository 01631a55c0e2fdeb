package dev.zkspring.config;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

import dev.zkspring.client.CuratorFrameworkCustomizer;
import dev.zkspring.client.ZkClientFactory;
import dev.zkspring.client.ZkClientProperties;
import dev.zkspring.client.ZkConnectionStateChangedEvent;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.embedded.EmbeddedZooKeeper;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The initializer's client is the application's one client, closed before the embedded server. */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigSharedClientTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path snapshots;

	@Test
	void anApplicationWithTheConfigCenterHasOneClientBeanAndOneSession() throws Exception {
		int before = connections();
		try (ConfigurableApplicationContext context = ConfigTestSupport.run("--" + zk.connectProperty(),
				"--zk.config.snapshot-dir=" + this.snapshots)) {
			assertThat(context.getBeansOfType(CuratorFramework.class)).hasSize(1).containsKey("curatorFramework");
			assertThat(context.getBeanFactory().containsBeanDefinition("curatorFramework"))
				.as("registered by the initializer, not defined by the auto-configuration")
				.isFalse();
			assertThat(connections()).isEqualTo(before + 1);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> connections() == before);
	}

	@Test
	void closingTheContextClosesTheClientThenTheEmbeddedServer() {
		List<ZkConnectionStateChangedEvent> events = new CopyOnWriteArrayList<>();
		CuratorFramework client;
		int port;
		try (ConfigurableApplicationContext context = ConfigTestSupport.run("--zk.embedded.enabled=true",
				"--zk.config.snapshot-dir=" + this.snapshots)) {
			context.addApplicationListener((event) -> {
				if (event instanceof ZkConnectionStateChangedEvent state) {
					events.add(state);
				}
			});
			client = context.getBean(CuratorFramework.class);
			EmbeddedZooKeeper server = context.getBean(EmbeddedZooKeeper.class);
			port = server.port();
			assertThat(context.getBeansOfType(EmbeddedZooKeeper.class)).containsOnlyKeys("zkEmbeddedServer");
			assertThat(client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(server.connectString());
			assertThat(context.getBeanFactory().getDependentBeans("zkEmbeddedServer")).contains("curatorFramework");
		}
		assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STOPPED);
		// had the server stopped first, the still-open client would have reported SUSPENDED
		assertThat(events).noneMatch((event) -> !event.getState().isConnected());
		await().atMost(Duration.ofSeconds(5)).until(() -> !accepts(port));
	}

	@Test
	void customizersFromSpringFactoriesApplyToTheEarlyClientAndCustomizerBeansGetOneWarning(CapturedOutput output) {
		int before = RecordingCuratorFrameworkCustomizer.applied.get();
		ConfigTestSupport.runner(zk, this.snapshots).withUserConfiguration(CustomizerBeans.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(RecordingCuratorFrameworkCustomizer.applied.get()).isEqualTo(before + 1);
			assertThat(context.getBean(CuratorFramework.class).getNamespace()).isEmpty();
		});
		assertThat(output).containsOnlyOnce("CuratorFrameworkCustomizer beans [namespaceCustomizer] were not applied")
			.contains("Register them in META-INF/spring.factories under dev.zkspring.client.CuratorFrameworkCustomizer");
	}

	@Test
	void anApplicationDefiningItsOwnClientFailsToStartWithAMessageSayingWhatToChange() {
		ConfigTestSupport.runner(zk, this.snapshots).withUserConfiguration(OwnClient.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(ZkStartupException.class);
			ZkStartupException failure = (ZkStartupException) context.getStartupFailure();
			assertThat(failure.getDescription()).contains("own CuratorFramework bean [myClient]");
			assertThat(failure.getAction()).contains("zk.config.enabled=false").contains("@Primary");
		});
	}

	@Test
	void anApplicationWithItsOwnPrimaryClientIsWarnedOfTheSecondSession(CapturedOutput output) {
		ConfigTestSupport.runner(zk, this.snapshots).withUserConfiguration(OwnPrimaryClient.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBeansOfType(CuratorFramework.class)).containsOnlyKeys("curatorFramework", "myClient");
			assertThat(context.getBean(CuratorFramework.class)).isSameAs(context.getBean("myClient"));
		});
		assertThat(output).containsOnlyOnce("CuratorFramework beans [myClient] are defined next to the config center's "
				+ "client 'curatorFramework': the application holds a second ZooKeeper session.");
	}

	@Test
	void withTheConfigCenterOffTheAutoConfigurationCreatesTheClientAndCustomizerBeansApply() {
		ConfigTestSupport.runner(zk, this.snapshots)
			.withPropertyValues("zk.config.enabled=false")
			.withUserConfiguration(CustomizerBeans.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(CuratorFramework.class);
				assertThat(context.getBeanFactory().containsBeanDefinition("curatorFramework")).isTrue();
				assertThat(context.getEnvironment().getPropertySources().contains(ZkConfigInitializer.PROPERTY_SOURCE_NAME))
					.isFalse();
				assertThat(context.getBean(CuratorFramework.class).getNamespace()).isEqualTo("customized");
			});
	}

	@Test
	void withZkOffTheInitializerDoesNothing() {
		ConfigTestSupport.runner(zk, this.snapshots).withPropertyValues("zk.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(CuratorFramework.class);
			assertThat(context.getEnvironment().getPropertySources().contains(ZkConfigInitializer.PROPERTY_SOURCE_NAME))
				.isFalse();
		});
	}

	@Test
	void withoutCuratorOnTheClasspathTheInitializerDoesNothing() {
		ConfigTestSupport.runner(zk, this.snapshots)
			.withClassLoader(new FilteredClassLoader(CuratorFramework.class))
			.run((context) -> assertThat(context.getEnvironment().getPropertySources()
				.contains(ZkConfigInitializer.PROPERTY_SOURCE_NAME)).isFalse());
	}

	@Test
	void withoutJacksonOnTheClasspathTheStartupFailsSayingWhatToAdd() {
		ConfigTestSupport.runner(zk, this.snapshots)
			.withClassLoader(new FilteredClassLoader("tools.jackson"))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(ZkStartupException.class)
					.hasMessageContaining("tools.jackson.core:jackson-databind");
				assertThat(((ZkStartupException) context.getStartupFailure()).getAction())
					.contains("zk.config.enabled=false");
			});
	}

	private static int connections() throws IOException {
		return ImportTestSupport.connections(zk);
	}

	private static boolean accepts(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnClient {

		@Bean(destroyMethod = "close")
		CuratorFramework myClient() {
			CuratorFramework client = ZkClientFactory.create(new ZkClientProperties().toClientSettings(List.of("/locks", "/leader")), zk.connectString(), List.of());
			ZkClientFactory.start(client, Duration.ofSeconds(10));
			return client;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnPrimaryClient {

		@Bean(destroyMethod = "close")
		@Primary
		CuratorFramework myClient() {
			return new OwnClient().myClient();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomizerBeans {

		@Bean
		CuratorFrameworkCustomizer namespaceCustomizer() {
			return (builder) -> builder.namespace("customized");
		}

	}

}
