package dev.zkspring.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import dev.zkspring.client.CuratorFrameworkCustomizer;
import dev.zkspring.client.ZkClientFactory;
import dev.zkspring.client.ZkClientProperties;
import dev.zkspring.client.ZkConnectionStateChangedEvent;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@ExtendWith(OutputCaptureExtension.class)
class ZkAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class));

	@Test
	void createsOneStartedClientConnectedToZkConnect() {
		this.contextRunner.withPropertyValues(zk.connectProperty()).run((context) -> {
			assertThat(context).hasSingleBean(CuratorFramework.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
			assertThat(client.getZookeeperClient().isConnected()).isTrue();
			assertThat(client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(zk.connectString());
		});
	}

	@Test
	void appliesSessionTimeoutAndNamespace() throws Exception {
		CuratorFramework observer = zk.newClient();
		this.contextRunner.withPropertyValues(zk.connectProperty(), "zk.session-timeout=8s", "zk.namespace=/orders")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient().getZooKeeper().getSessionTimeout()).isEqualTo(8_000);
				client.create().creatingParentsIfNeeded().forPath("/probe", new byte[0]);
				assertThat(observer.checkExists().forPath("/orders/probe")).isNotNull();
			});
	}

	@Test
	void closesClientWithTheContext() {
		CuratorFramework[] client = new CuratorFramework[1];
		this.contextRunner.withPropertyValues(zk.connectProperty())
			.run((context) -> client[0] = context.getBean(CuratorFramework.class));
		assertThat(client[0].getState()).isEqualTo(CuratorFrameworkState.STOPPED);
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnClient() {
		this.contextRunner.withPropertyValues(zk.connectProperty())
			.withUserConfiguration(UserClientConfiguration.class)
			.run((context) -> {
				assertThat(context).hasSingleBean(CuratorFramework.class);
				assertThat(context).getBean(CuratorFramework.class).isSameAs(context.getBean("myClient"));
			});
	}

	@Test
	void reusesAClientRegisteredBeforeRefreshSoTheApplicationHasOneSession() {
		CuratorFramework[] early = new CuratorFramework[1];
		this.contextRunner.withPropertyValues(zk.connectProperty()).withInitializer((context) -> {
			early[0] = ZkClientFactory.create(new ZkClientProperties().toClientSettings(List.of("/locks", "/leader")), zk.connectString(), List.of());
			ZkClientFactory.start(early[0], Duration.ofSeconds(10));
			DefaultListableBeanFactory beanFactory = (DefaultListableBeanFactory) context.getBeanFactory();
			beanFactory.registerSingleton("curatorFramework", early[0]);
			beanFactory.registerDisposableBean("curatorFramework", early[0]::close);
		}).run((context) -> {
			assertThat(context).hasSingleBean(CuratorFramework.class);
			assertThat(context).getBean(CuratorFramework.class).isSameAs(early[0]);
		});
		assertThat(early[0].getState()).isEqualTo(CuratorFrameworkState.STOPPED);
	}

	@Test
	void zkEnabledFalseTurnsEverythingOff() {
		this.contextRunner.withPropertyValues("zk.enabled=false", "zk.embedded.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(CuratorFramework.class)
				.doesNotHaveBean(ZkClientProperties.class)
				.doesNotHaveBean("zkEmbeddedServer"));
	}

	@Test
	void backsOffWhenCuratorIsNotOnTheClasspath() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(CuratorFramework.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkClientProperties.class));
	}

	@Test
	void appliesCustomizersInOrderAfterTheProperties() {
		this.contextRunner.withPropertyValues(zk.connectProperty(), "zk.namespace=from-properties")
			.withUserConfiguration(CustomizerConfiguration.class)
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getNamespace()).isEqualTo("second");
				assertThat(context.getBean(CustomizerConfiguration.class).seen).containsExactly("from-properties",
						"first");
			});
	}

	@Test
	void turnsConnectionStateChangesIntoEventsAndOneLogLineEach(CapturedOutput output) {
		this.contextRunner.withPropertyValues(zk.connectProperty(), "zk.connection-timeout=2s")
			.withUserConfiguration(StateRecorder.class)
			.run((context) -> {
				List<ConnectionState> states = context.getBean(StateRecorder.class).states;
				zk.stopServer();
				await().atMost(Duration.ofSeconds(15)).until(() -> states.contains(ConnectionState.SUSPENDED));
				zk.restartServer();
				await().atMost(Duration.ofSeconds(20)).until(() -> states.contains(ConnectionState.RECONNECTED));
				assertThat(states).containsSubsequence(ConnectionState.SUSPENDED, ConnectionState.RECONNECTED);
			});
		assertThat(output).containsOnlyOnce("Connection to ZooKeeper at " + zk.connectString() + " suspended")
			.contains("Reconnected to ZooKeeper at " + zk.connectString());
	}

	@Configuration(proxyBeanMethods = false)
	static class UserClientConfiguration {

		@Bean(destroyMethod = "close")
		CuratorFramework myClient() {
			ZkClientProperties properties = new ZkClientProperties();
			CuratorFramework client = ZkClientFactory.create(properties.toClientSettings(List.of("/locks", "/leader")), zk.connectString(), List.of());
			ZkClientFactory.start(client, Duration.ofSeconds(10));
			return client;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CustomizerConfiguration {

		final List<String> seen = new CopyOnWriteArrayList<>();

		@Bean
		@Order(2)
		CuratorFrameworkCustomizer second() {
			return (builder) -> builder.namespace("second");
		}

		@Bean
		@Order(1)
		CuratorFrameworkCustomizer first() {
			return (builder) -> {
				this.seen.add(builder.getNamespace());
				builder.namespace("first");
				this.seen.add(builder.getNamespace());
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class StateRecorder implements ApplicationListener<ZkConnectionStateChangedEvent> {

		final List<ConnectionState> states = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ZkConnectionStateChangedEvent event) {
			this.states.add(event.getState());
		}

	}

}
