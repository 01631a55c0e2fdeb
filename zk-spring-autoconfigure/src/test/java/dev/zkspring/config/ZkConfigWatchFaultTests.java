package dev.zkspring.config;

import java.nio.file.Path;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The persistent watches under faults: a change made while the instance is cut off, on the same
 * session or across one the server expired meanwhile, is applied once it is back, and the watches
 * deliver the changes after it (set again by the client on the same session, by the watcher on a new one).
 */
class ZkConfigWatchFaultTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final Duration WAIT = Duration.ofSeconds(20);

	@TempDir
	Path snapshots;

	private CuratorFramework writer;

	private CuttableProxy proxy;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() throws Exception {
		this.writer = zk.newClient();
		this.proxy = CuttableProxy.to(zk.connectString());
		this.runner = ConfigTestSupport.runner(zk, this.snapshots)
			.withPropertyValues("zk.connect=" + this.proxy.connectString(), "zk.session-timeout=30s",
					"zk.connection-timeout=2s");
		write(this.writer, "/config/orders", "{\"shop\":{\"greeting\":\"before\"}}");
	}

	@AfterEach
	void cleanUp() throws Exception {
		this.proxy.close();
		ConfigTestSupport.deleteAll(this.writer, "/config");
	}

	@Test
	void aChangeMadeWhileTheConnectionIsCutIsAppliedOnReconnectAndTheWatchStays() {
		this.runner.withPropertyValues("spring.profiles.active=eu").run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			settle(context);
			long session = client.getZookeeperClient().getZooKeeper().getSessionId();
			this.proxy.cut();
			await().atMost(WAIT).until(() -> !client.getZookeeperClient().isConnected());
			write(this.writer, "/config/orders", "{\"shop\":{\"greeting\":\"while-cut\"}}");
			// a context created while cut off: its watch was set before it existed
			write(this.writer, "/config/orders,eu", "{\"shop\":{\"region\":\"eu\"}}");
			this.proxy.heal();
			await().atMost(WAIT).until(() -> "while-cut".equals(greeting(context)));
			assertThat(context.getEnvironment().getProperty("shop.region")).isEqualTo("eu");
			assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).as("the same session")
				.isEqualTo(session);
			write(this.writer, "/config/orders", "{\"shop\":{\"greeting\":\"after\"}}");
			await().atMost(WAIT).until(() -> "after".equals(greeting(context)));
			write(this.writer, "/config/orders,eu", "{\"shop\":{\"region\":\"eu-west\"}}");
			await().atMost(WAIT).until(() -> "eu-west".equals(context.getEnvironment().getProperty("shop.region")));
		});
	}

	@Test
	void aChangeMadeWhileTheServerExpiredTheSessionIsAppliedAndTheNewSessionIsWatched() {
		this.runner.run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			settle(context);
			ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
			long session = zooKeeper.getSessionId();
			this.proxy.cut();
			await().atMost(WAIT).until(() -> !client.getZookeeperClient().isConnected());
			ZooKeeperExtension.expireSession(zk.connectString(), session, zooKeeper.getSessionPasswd());
			write(this.writer, "/config/orders", "{\"shop\":{\"greeting\":\"during-expiry\"}}");
			this.proxy.heal();
			await().atMost(WAIT).until(() -> "during-expiry".equals(greeting(context)));
			assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).as("a new session")
				.isNotEqualTo(session);
			// only a watch added on the new session can bring these
			write(this.writer, "/config/orders", "{\"shop\":{\"greeting\":\"after-expiry\"}}");
			await().atMost(WAIT).until(() -> "after-expiry".equals(greeting(context)));
			this.writer.delete().forPath("/config/orders");
			await().atMost(WAIT).until(() -> greeting(context) == null);
		});
	}

	/**
	 * One change applied before the fault: the reload at readiness is over, so no read that started
	 * before the cut (and retries until it is healed) can bring the change made during it.
	 */
	private void settle(ConfigurableApplicationContext context) throws Exception {
		write(this.writer, "/config/orders", "{\"shop\":{\"greeting\":\"settled\"}}");
		await().atMost(WAIT).until(() -> "settled".equals(greeting(context)));
	}

	private static String greeting(ConfigurableApplicationContext context) {
		return context.getEnvironment().getProperty("shop.greeting");
	}

}
