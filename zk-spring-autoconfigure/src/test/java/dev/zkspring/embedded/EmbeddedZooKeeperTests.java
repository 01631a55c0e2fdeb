package dev.zkspring.embedded;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.client.ZkConnectionStateChangedEvent;
import dev.zkspring.client.ZkStartupException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

class EmbeddedZooKeeperTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class));

	@Test
	void portZeroPicksAFreePortAndPublishesTheConnectString() {
		this.contextRunner.withPropertyValues("zk.embedded.enabled=true", "zk.embedded.port=0").run((context) -> {
			EmbeddedZooKeeper server = context.getBean(EmbeddedZooKeeper.class);
			assertThat(server.port()).isPositive();
			assertThat(context.getEnvironment().getProperty("zk.connect")).isEqualTo("127.0.0.1:" + server.port());
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(client.getZookeeperClient().isConnected()).isTrue();
			assertThat(client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(server.connectString());
			client.create().forPath("/hello", new byte[] { 1 });
			assertThat(client.getData().forPath("/hello")).containsExactly(1);
		});
	}

	@Test
	void embeddedServerWinsOverAnExplicitZkConnect() {
		this.contextRunner.withPropertyValues("zk.embedded.enabled=true", "zk.connect=zk.invalid:2181")
			.run((context) -> assertThat(context.getBean(CuratorFramework.class).getZookeeperClient()
				.getCurrentConnectionString()).isEqualTo(context.getBean(EmbeddedZooKeeper.class).connectString()));
	}

	@Test
	void closingTheContextClosesTheClientFirstThenStopsTheServerAndRemovesItsData() {
		int[] port = new int[1];
		Path[] data = new Path[1];
		CuratorFramework[] client = new CuratorFramework[1];
		List<ZkConnectionStateChangedEvent> events = new CopyOnWriteArrayList<>();
		this.contextRunner.withPropertyValues("zk.embedded.enabled=true")
			.withBean(EventRecorder.class, () -> new EventRecorder(events))
			.run((context) -> {
				EmbeddedZooKeeper server = context.getBean(EmbeddedZooKeeper.class);
				port[0] = server.port();
				data[0] = server.dataDirectory();
				client[0] = context.getBean(CuratorFramework.class);
				assertThat(data[0]).isDirectory();
				assertThat(context.getBeanFactory().getDependentBeans("zkEmbeddedServer")).contains("curatorFramework");
			});
		assertThat(client[0].getState()).isEqualTo(CuratorFrameworkState.STOPPED);
		// had the server stopped first, the still-open client would have reported SUSPENDED
		assertThat(events).noneMatch((event) -> !event.getState().isConnected());
		await().atMost(Duration.ofSeconds(5)).until(() -> !accepts(port[0]));
		assertThat(data[0]).doesNotExist();
	}

	@Test
	void configuredDataDirectoryKeepsDataAcrossRestarts(@TempDir Path dir) throws Exception {
		Path data = dir.resolve("zk-data");
		try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(0, data); CuratorFramework client = connect(server)) {
			assertThat(server.dataDirectory()).isEqualTo(data.toAbsolutePath());
			client.create().forPath("/kept", new byte[] { 7 });
		}
		try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(0, data); CuratorFramework client = connect(server)) {
			assertThat(client.getData().forPath("/kept")).containsExactly(7);
		}
	}

	@Test
	void takenPortFailsWithAMessageNamingThePort() throws IOException {
		try (ServerSocket taken = new ServerSocket()) {
			taken.bind(new InetSocketAddress("127.0.0.1", 0));
			int port = taken.getLocalPort();
			this.contextRunner.withPropertyValues("zk.embedded.enabled=true", "zk.embedded.port=" + port)
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(startupException(context.getStartupFailure())).hasMessageContaining("port " + port + " (zk.embedded.port)")
						.hasMessageContaining("already in use");
				});
		}
	}

	@Test
	void portOutOfRangeNamesTheProperty() {
		assertThatExceptionOfType(ZkStartupException.class).isThrownBy(() -> EmbeddedZooKeeper.start(70000, null))
			.withMessageContaining("zk.embedded.port 70000");
	}

	private static ZkStartupException startupException(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ZkStartupException startup) {
				return startup;
			}
		}
		throw new AssertionError("no ZkStartupException in the startup failure", failure);
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

	private static CuratorFramework connect(EmbeddedZooKeeper server) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.newClient(server.connectString(), new RetryOneTime(100));
		client.start();
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	@Configuration(proxyBeanMethods = false)
	static class EventRecorder implements ApplicationListener<ZkConnectionStateChangedEvent> {

		private final List<ZkConnectionStateChangedEvent> events;

		EventRecorder(List<ZkConnectionStateChangedEvent> events) {
			this.events = events;
		}

		@Override
		public void onApplicationEvent(ZkConnectionStateChangedEvent event) {
			this.events.add(event);
		}

	}

}
