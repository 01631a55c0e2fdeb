package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.zkspring.config.ConfigTestSupport.EventRecorder;
import dev.zkspring.config.ZkConfigChange.Type;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Changes while the application runs: seen, coalesced, in order, not lost across readiness and sessions. */
class ZkConfigWatchIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final Duration WAIT = Duration.ofSeconds(15);

	static CuratorFramework writer;

	@TempDir
	Path snapshots;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() throws Exception {
		writer = zk.newClient();
		this.runner = ConfigTestSupport.runner(zk, this.snapshots).withBean(EventRecorder.class, EventRecorder::new);
	}

	@AfterEach
	void cleanUp() throws Exception {
		ConfigTestSupport.deleteAll(writer, "/config");
	}

	@Test
	void aChangeIsAppliedAndPublishedAsOneEventWithThePerKeyDiff() throws Exception {
		write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"hi\",\"old\":\"x\",\"same\":\"s\"}}");
		this.runner.run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"hello\",\"new\":\"y\",\"same\":\"s\"}}");
			await().atMost(WAIT).until(() -> "hello".equals(context.getEnvironment().getProperty("shop.greeting")));
			await().atMost(WAIT).until(() -> events.changes.size() == 1);
			ZkConfigChangedEvent event = events.changes.get(0);
			assertThat(event.getChanges()).containsExactlyInAnyOrder(
					new ZkConfigChange("shop.greeting", Type.CHANGED, "hi", "hello"),
					new ZkConfigChange("shop.new", Type.ADDED, null, "y"),
					new ZkConfigChange("shop.old", Type.REMOVED, "x", null));
			assertThat(event.getKeys()).containsExactlyInAnyOrder("shop.greeting", "shop.new", "shop.old");
			assertThat(event.getPropertySources()).singleElement()
				.satisfies((source) -> assertThat(source.getProperty("shop.new")).isEqualTo("y"));
			assertThat(event).asString().doesNotContain("hello").contains("shop.greeting");
			assertThat(context.getEnvironment().containsProperty("shop.old")).isFalse();
		});
	}

	@Test
	void fiveHundredChangesInATightLoopEndWithTheEnvironmentEqualToTheLastWrite() throws Exception {
		write(writer, "/config/orders", "{\"n\":0}");
		this.runner.run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			for (int i = 1; i <= 500; i++) {
				writer.setData().forPath("/config/orders", ("{\"n\":" + i + ",\"k" + (i % 7) + "\":" + i + "}").getBytes());
			}
			await().atMost(WAIT).until(() -> "500".equals(context.getEnvironment().getProperty("n")));
			await().atMost(WAIT).until(() -> lastNewValue(events).equals("500"));
			assertThat(context.getEnvironment().getProperty("k3")).isEqualTo("500");
			assertThat(context.getEnvironment().containsProperty("k2")).isFalse();
			// coalesced: fewer events than writes, and never out of order: each starts where the last ended
			assertThat(events.changes.size()).isBetween(1, 500);
			String previous = "0";
			for (ZkConfigChangedEvent event : events.changes) {
				ZkConfigChange n = event.getChanges().stream().filter((c) -> c.key().equals("n")).findFirst().orElseThrow();
				assertThat(n.oldValue()).isEqualTo(previous);
				assertThat(Integer.parseInt((String) n.newValue())).isGreaterThan(Integer.parseInt(previous));
				previous = (String) n.newValue();
			}
		});
	}

	@Test
	void aChangeMadeBetweenTheInitialLoadAndContextReadyIsApplied() throws Exception {
		write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"at-load\"}}");
		this.runner.withUserConfiguration(WritesDuringRefresh.class).run((context) -> {
			assertThat(context.getBean("loadedValue")).isEqualTo("at-load");
			await().atMost(WAIT)
				.until(() -> "during-refresh".equals(context.getEnvironment().getProperty("shop.greeting")));
			EventRecorder events = context.getBean(EventRecorder.class);
			await().atMost(WAIT).until(() -> events.changes.size() == 1);
			assertThat(events.changes.get(0).getChanges())
				.containsExactly(new ZkConfigChange("shop.greeting", Type.CHANGED, "at-load", "during-refresh"));
		});
	}

	@Test
	void aChangeWrittenWhileAReloadRunsIsAppliedAfterIt() throws Exception {
		write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"first\"}}");
		this.runner.withBean(BlockingListener.class, BlockingListener::new).run((context) -> {
			BlockingListener blocking = context.getBean(BlockingListener.class);
			ZkConfigWatcher watcher = context.getBean(ConfigBootstrap.WATCHER_BEAN, ZkConfigWatcher.class);
			write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"second\"}}");
			assertThat(blocking.entered.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("a reload is running").isTrue();
			// seen by the watcher while the reload that applies "second" is still running
			writeAndAwaitHandled(watcher, "{\"shop\":{\"greeting\":\"third\"}}");
			blocking.release.countDown();
			await().atMost(WAIT).until(() -> "third".equals(context.getEnvironment().getProperty("shop.greeting")));
		});
	}

	@Test
	void afterASessionExpiryTheStateIsReadAgainAndLaterChangesAreApplied() throws Exception {
		write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"before\"}}");
		this.runner.run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			client.getConnectionStateListenable().addListener((c, state) -> states.add(state));
			ZooKeeperExtension.expireSession(client);
			// written while the application's client is between sessions
			write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"during-expiry\"}}");
			await().atMost(WAIT).until(() -> states.contains(ConnectionState.LOST) && client.getZookeeperClient().isConnected());
			await().atMost(WAIT)
				.until(() -> "during-expiry".equals(context.getEnvironment().getProperty("shop.greeting")));
			write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"after-expiry\"}}");
			await().atMost(WAIT)
				.until(() -> "after-expiry".equals(context.getEnvironment().getProperty("shop.greeting")));
		});
	}

	@Test
	void aSuspendedConnectionKeepsTheConfigurationAndAChangeAfterReconnectingIsApplied() throws Exception {
		write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"before\"}}");
		this.runner.withPropertyValues("zk.connection-timeout=2s").run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			client.getConnectionStateListenable().addListener((c, state) -> states.add(state));
			zk.stopServer();
			try {
				await().atMost(WAIT).until(() -> states.contains(ConnectionState.SUSPENDED));
				assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("before");
			}
			finally {
				zk.restartServer();
			}
			await().atMost(WAIT).until(() -> states.contains(ConnectionState.RECONNECTED));
			write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"after\"}}");
			await().atMost(WAIT).until(() -> "after".equals(context.getEnvironment().getProperty("shop.greeting")));
		});
	}

	@Test
	void changesToOtherApplicationsContextsPublishNothing() throws Exception {
		write(writer, "/config/orders", "{\"a\":\"1\"}");
		this.runner.run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			write(writer, "/config/billing", "{\"a\":\"billing\"}");
			write(writer, "/config/orders", "{\"a\":\"2\"}");
			await().atMost(WAIT).until(() -> "2".equals(context.getEnvironment().getProperty("a")));
			await().atMost(WAIT).until(() -> !events.changes.isEmpty());
			assertThat(events.changes).singleElement()
				.satisfies((event) -> assertThat(event.getKeys()).containsExactly("a"));
		});
	}

	@Test
	void withWatchOffChangesAreNotApplied() throws Exception {
		write(writer, "/config/orders", "{\"a\":\"1\"}");
		this.runner.withPropertyValues("zk.config.watch=false").run((context) -> {
			write(writer, "/config/orders", "{\"a\":\"2\"}");
			await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
				.until(() -> "1".equals(context.getEnvironment().getProperty("a")));
		});
	}

	private static String lastNewValue(EventRecorder events) {
		if (events.changes.isEmpty()) {
			return "";
		}
		return events.changes.get(events.changes.size() - 1)
			.getChanges()
			.stream()
			.filter((c) -> c.key().equals("n"))
			.map((c) -> String.valueOf(c.newValue()))
			.findFirst()
			.orElse("");
	}

	@Configuration(proxyBeanMethods = false)
	static class WritesDuringRefresh {

		/**
		 * Writes after the initial load and, before the context is ready, waits until the watcher has
		 * been told of the write and has let it pass (not ready yet): only the re-read at ready applies it.
		 */
		@Bean
		String loadedValue(Environment environment, BeanFactory beanFactory) throws Exception {
			String loaded = environment.getProperty("shop.greeting");
			writeAndAwaitHandled(beanFactory.getBean(ConfigBootstrap.WATCHER_BEAN, ZkConfigWatcher.class),
					"{\"shop\":{\"greeting\":\"during-refresh\"}}");
			return loaded;
		}

	}

	/** Write /config/orders and return once the watcher has handled the watch event of that write. */
	static void writeAndAwaitHandled(ZkConfigWatcher watcher, String json) throws Exception {
		org.apache.zookeeper.data.Stat current = writer.checkExists().forPath("/config/orders");
		CountDownLatch handled = new CountDownLatch(1);
		watcher.onChangeHandled((event) -> {
			// the event names the transaction that fired it: this write's, not an earlier one's
			if (event.getPath().equals("/config/orders") && event.getZxid() > current.getMzxid()) {
				handled.countDown();
			}
		});
		writer.setData().withVersion(current.getVersion()).forPath("/config/orders", json.getBytes(StandardCharsets.UTF_8));
		assertThat(handled.await(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the watcher saw the write").isTrue();
	}

	/** Holds the first change event, which the refresher thread publishes in the middle of a reload. */
	static class BlockingListener implements ApplicationListener<ZkConfigChangedEvent> {

		final CountDownLatch entered = new CountDownLatch(1);

		final CountDownLatch release = new CountDownLatch(1);

		@Override
		public void onApplicationEvent(ZkConfigChangedEvent event) {
			if (this.entered.getCount() > 0) {
				this.entered.countDown();
				try {
					this.release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

}
