package dev.zkspring.config;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.test.ZkAppFixture;

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
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config");

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ProxiedApp proxy = new ProxiedApp(app, (runner) -> runner.withPropertyValues("zk.connection-timeout=2s"));

	@BeforeEach
	void setUp() throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"before\"}}");
	}

	@Test
	void aChangeMadeWhileTheConnectionIsCutIsAppliedOnReconnectAndTheWatchStays() {
		this.proxy.runner().withPropertyValues("spring.profiles.active=eu").run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			settle(context);
			long session = ProxiedApp.session(client);
			this.proxy.cutUntilDisconnected(client);
			write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"while-cut\"}}");
			// a context created while cut off: its watch was set before it existed
			write(app.writer(), "/config/orders,eu", "{\"shop\":{\"region\":\"eu\"}}");
			this.proxy.heal();
			await().atMost(WAIT).until(() -> "while-cut".equals(greeting(context)));
			assertThat(context.getEnvironment().getProperty("shop.region")).isEqualTo("eu");
			assertThat(ProxiedApp.session(client)).as("the same session").isEqualTo(session);
			write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"after\"}}");
			await().atMost(WAIT).until(() -> "after".equals(greeting(context)));
			write(app.writer(), "/config/orders,eu", "{\"shop\":{\"region\":\"eu-west\"}}");
			await().atMost(WAIT).until(() -> "eu-west".equals(context.getEnvironment().getProperty("shop.region")));
		});
	}

	@Test
	void aChangeMadeWhileTheServerExpiredTheSessionIsAppliedAndTheNewSessionIsWatched() {
		this.proxy.runner().run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			settle(context);
			long session = ProxiedApp.session(client);
			this.proxy.cutAndExpire(client);
			write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"during-expiry\"}}");
			this.proxy.heal();
			await().atMost(WAIT).until(() -> "during-expiry".equals(greeting(context)));
			assertThat(ProxiedApp.session(client)).as("a new session").isNotEqualTo(session);
			// only a watch added on the new session can bring these
			write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"after-expiry\"}}");
			await().atMost(WAIT).until(() -> "after-expiry".equals(greeting(context)));
			app.writer().delete().forPath("/config/orders");
			await().atMost(WAIT).until(() -> greeting(context) == null);
		});
	}

	/**
	 * One change applied before the fault: the reload at readiness is over, so no read that started
	 * before the cut (and retries until it is healed) can bring the change made during it.
	 */
	private void settle(ConfigurableApplicationContext context) throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"settled\"}}");
		await().atMost(WAIT).until(() -> "settled".equals(greeting(context)));
	}

	private static String greeting(ConfigurableApplicationContext context) {
		return context.getEnvironment().getProperty("shop.greeting");
	}

}
