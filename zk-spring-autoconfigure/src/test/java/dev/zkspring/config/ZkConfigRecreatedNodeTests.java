package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * A context node deleted and created again starts at version 0 again: what it holds is judged by its
 * content, not by its version. The snapshot follows it, and a node recreated while the client is
 * away (same session behind a cut connection, or an expired session) is applied on reconnection,
 * which the cache alone does not notice (it compares versions).
 */
class ZkConfigRecreatedNodeTests {

	private static final String ORDERS = "/config/orders";

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config");

	@RegisterExtension
	final ProxiedApp proxy = new ProxiedApp(app);

	@BeforeEach
	void setUp() throws Exception {
		write(app.writer(), ORDERS, "{\"shop\":{\"greeting\":\"old\"}}");
	}

	@Test
	void aNodeRecreatedAtItsOldVersionIsWrittenToTheSnapshot() {
		this.proxy.runner().run((context) -> {
			Path snapshot = ZkConfigSnapshotTests.snapshotFile(app.snapshots());
			assertThat(Files.readString(snapshot)).contains("\"shop.greeting\":\"old\"");
			recreate("new");
			await().atMost(WAIT).until(() -> "new".equals(greeting(context)));
			await().atMost(WAIT).until(() -> Files.readString(snapshot).contains("\"shop.greeting\":\"new\""));
			assertThat(new ConfigSnapshotStore(snapshot).read()).singleElement()
				.satisfies((source) -> assertThat(source.getProperty("shop.greeting")).isEqualTo("new"));
		});
	}

	@Test
	void aNodeRecreatedWhileTheClientIsAwayOnTheSameSessionIsAppliedWhenItReconnects() {
		this.proxy.runner().run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			long session = ProxiedApp.session(client);
			this.proxy.cutUntilDisconnected(client);
			recreate("new");
			this.proxy.heal();
			await().atMost(WAIT).until(() -> "new".equals(greeting(context)));
			assertThat(ProxiedApp.session(client)).as("the same session").isEqualTo(session);
		});
	}

	@Test
	void aNodeRecreatedWhileTheSessionExpiredIsAppliedOnTheNewSession() {
		this.proxy.runner().run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			long session = ProxiedApp.session(client);
			this.proxy.cutAndExpire(client);
			recreate("new");
			this.proxy.heal();
			await().atMost(WAIT).until(() -> "new".equals(greeting(context)));
			assertThat(ProxiedApp.session(client)).as("a new session").isNotEqualTo(session);
		});
	}

	/** Delete and create the node in one transaction: its version starts at 0 again. */
	private void recreate(String greeting) throws Exception {
		byte[] data = ("{\"shop\":{\"greeting\":\"" + greeting + "\"}}").getBytes(StandardCharsets.UTF_8);
		app.writer().transaction()
			.forOperations(app.writer().transactionOp().delete().forPath(ORDERS),
					app.writer().transactionOp().create().forPath(ORDERS, data));
		assertThat(app.writer().checkExists().forPath(ORDERS).getVersion()).isZero();
	}

	private static String greeting(ConfigurableApplicationContext context) {
		return context.getEnvironment().getProperty("shop.greeting");
	}

}
