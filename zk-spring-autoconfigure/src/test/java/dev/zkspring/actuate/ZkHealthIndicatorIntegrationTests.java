package dev.zkspring.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.zkspring.autoconfigure.ZkHealthContributorAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.test.ZkAppFixture;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The {@code zookeeper} health contributor against a real server that stops and starts. */
class ZkHealthIndicatorIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture
		.server(ZkAppFixture.app(ZkLeaderAutoConfiguration.class, ZkHealthContributorAutoConfiguration.class))
		.cleaning("/config")
		.with((runner) -> runner.withPropertyValues("zk.leader.enabled=true", "zk.connection-timeout=1s",
				"zk.session-timeout=10s", "zk.leader.id=node-1"));

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Test
	void connectedApplicationIsUpWithSessionConfigVersionAndLeadership() throws Exception {
		app.write("/config/orders", "{\"shop\":{\"greeting\":\"hello\"}}");
		app.runner().run((context) -> {
			ZkHealthIndicator indicator = context.getBean("zookeeperHealthIndicator", ZkHealthIndicator.class);
			await().atMost(WAIT).until(() -> leadership(indicator.health()).get("leader").equals(true));
			Health health = indicator.health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			long sessionId = client.getZookeeperClient().getZooKeeper().getSessionId();
			assertThat(health.getDetails()).containsEntry("sessionId", "0x" + Long.toHexString(sessionId))
				.containsEntry("sessionTimeout", "PT10S");
			Map<String, Object> config = config(health);
			assertThat(config).containsEntry("source", "ZOOKEEPER").containsEntry("degraded", false);
			assertThat(contexts(config)).anySatisfy((described) -> assertThat(described)
				.containsEntry("znode", "/config/orders").containsEntry("version", 0).containsEntry("keys", 1));
			assertThat(leadership(health)).containsEntry("me", "node-1").containsEntry("leaderId", "node-1");
			assertThat(health.toString()).doesNotContain("hello");
		});
	}

	@Test
	void contextReportsItsLastRefreshAndLastRejectionWithReasonButNoValue() throws Exception {
		app.write("/config/orders", "{\"shop\":{\"greeting\":\"v1\"}}");
		app.runner().run((context) -> {
			ZkHealthIndicator indicator = context.getBean(ZkHealthIndicator.class);
			app.write("/config/orders", "{\"shop\":{\"greeting\":\"v2\"}}");
			await().atMost(WAIT).until(() -> orders(indicator.health()).containsKey("lastRefresh"));
			assertThat(orders(indicator.health())).containsEntry("version", 1);
			app.write("/config/orders", "{\"shop\":{\"greeting\":\"s3cr3t\"");
			await().atMost(WAIT).until(() -> orders(indicator.health()).containsKey("lastRejection"));
			Map<String, Object> orders = orders(indicator.health());
			assertThat(orders).containsEntry("version", 1);
			@SuppressWarnings("unchecked")
			Map<String, Object> rejection = (Map<String, Object>) orders.get("lastRejection");
			assertThat(rejection).containsEntry("version", 2).containsKey("at");
			assertThat((String) rejection.get("reason")).contains("JSON");
			assertThat(indicator.health().toString()).doesNotContain("s3cr3t");
		});
	}

	@Test
	void stoppedServerMakesTheContributorDownAndRestartBringsItBackUp() throws Exception {
		app.runner().run((context) -> {
			ZkHealthIndicator indicator = context.getBean(ZkHealthIndicator.class);
			assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			app.zk().stopServer();
			try {
				// the status reads the client at once; the state is Curator's last event, which comes a little later
				await().atMost(WAIT).until(() -> indicator.health().getStatus().equals(Status.DOWN)
						&& "SUSPENDED".equals(indicator.health().getDetails().get("state")));
			}
			finally {
				app.zk().restartServer();
			}
			await().atMost(WAIT).until(() -> indicator.health().getStatus().equals(Status.UP)
					&& "RECONNECTED".equals(indicator.health().getDetails().get("state")));
		});
	}

	@Test
	void expiredSessionIsFollowedByANewSessionIdAndTheContributorIsUpAgain() throws Exception {
		app.runner().run((context) -> {
			ZkHealthIndicator indicator = context.getBean(ZkHealthIndicator.class);
			Object before = indicator.health().getDetails().get("sessionId");
			ZooKeeperExtension.expireSession(context.getBean(CuratorFramework.class));
			await().atMost(WAIT).until(() -> indicator.health().getStatus().equals(Status.UP)
					&& !before.equals(indicator.health().getDetails().get("sessionId")));
			assertThat(indicator.health().getDetails().get("state")).isIn("RECONNECTED", "CONNECTED");
		});
	}

	@Test
	void startFromTheSnapshotIsReportedAsDegradedUntilZooKeeperIsBack() throws Exception {
		app.write("/config/orders", "{\"shop\":{\"greeting\":\"from-snapshot\"}}");
		app.runner().run((context) -> assertThat(context).hasNotFailed());
		app.zk().stopServer();
		boolean[] restarted = new boolean[1];
		try {
			app.runner().run((context) -> {
				assertThat(context).hasNotFailed();
				ZkHealthIndicator indicator = context.getBean(ZkHealthIndicator.class);
				Health health = indicator.health();
				assertThat(health.getStatus()).isEqualTo(Status.DOWN);
				assertThat(config(health)).containsEntry("source", "SNAPSHOT").containsEntry("degraded", true);
				assertThat(contexts(config(health))).anySatisfy(
						(described) -> assertThat(described).containsEntry("znode", "/config/orders"));
				app.zk().restartServer();
				restarted[0] = true;
				await().atMost(WAIT).until(() -> config(indicator.health()).get("degraded").equals(false));
				assertThat(config(indicator.health())).containsEntry("source", "ZOOKEEPER");
				assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
			});
		}
		finally {
			if (!restarted[0]) {
				app.zk().restartServer();
			}
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> config(Health health) {
		return (Map<String, Object>) health.getDetails().get("config");
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> contexts(Map<String, Object> config) {
		return (List<Map<String, Object>>) config.get("contexts");
	}

	private static Map<String, Object> orders(Health health) {
		return contexts(config(health)).stream()
			.filter((described) -> "/config/orders".equals(described.get("znode")))
			.findFirst()
			.orElseThrow();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> leadership(Health health) {
		Map<String, Object> groups = (Map<String, Object>) health.getDetails().get("leadership");
		return (Map<String, Object>) groups.get("/leader/orders");
	}

}
