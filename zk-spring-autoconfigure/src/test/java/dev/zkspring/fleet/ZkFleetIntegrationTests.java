package dev.zkspring.fleet;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.publish.Change;
import dev.zkspring.publish.ConfigPublisher;
import dev.zkspring.test.MemberApp;
import dev.zkspring.test.MemberApp.Shop;
import dev.zkspring.test.ZkAppFixture;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The fleet view with three applications on one real server: what each applied, refused, leads and holds. */
class ZkFleetIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture
		.server(MemberApp.runner(ZkLeaderAutoConfiguration.class, ZkLockAutoConfiguration.class))
		.cleaning("/config", "/config.meta", "/fleet")
		.with((runner) -> runner.withBean(Shop.class)
			.withPropertyValues("zk.session-timeout=10s", "zk.leader.enabled=true"));

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String ZNODE = "/config/orders";

	@BeforeEach
	void setUp() throws Exception {
		app.write(ZNODE, "{\"shop\":{\"limit\":5,\"greeting\":\"v0\"}}");
	}

	@Test
	void afterAChangeEveryInstanceIsCurrentAtTheNewVersion() {
		threeApps((one, two, three) -> {
			await().atMost(WAIT).until(() -> fleet(one).size() == 3);
			assertThat(configOf(fleet(one))).allSatisfy((context) -> assertThat(context)
				.containsEntry("appliedVersion", 0).containsEntry("status", "CURRENT"));
			app.write(ZNODE, "{\"shop\":{\"limit\":6,\"greeting\":\"v1\"}}");
			await().atMost(WAIT).untilAsserted(() -> assertThat(configOf(fleet(two))).hasSize(3)
				.allSatisfy((context) -> assertThat(context).containsEntry("znode", ZNODE)
					.containsEntry("appliedVersion", 1)
					.containsEntry("latestVersion", 1)
					.containsEntry("status", "CURRENT")));
		});
	}

	@Test
	void aWriteThatChangesNoValueStillEndsCurrentAtItsVersion() {
		threeApps((one, two, three) -> {
			await().atMost(WAIT).until(() -> fleet(one).size() == 3);
			// the config center applies this without an event: only the node's watch tells the fleet view
			app.write(ZNODE, "{\"shop\":{\"greeting\":\"v0\",\"limit\":5}}");
			await().atMost(WAIT).untilAsserted(() -> assertThat(configOf(fleet(one))).hasSize(3)
				.allSatisfy((context) -> assertThat(context).containsEntry("appliedVersion", 1)
					.containsEntry("status", "CURRENT")));
		});
	}

	@Test
	void theInstanceSetsNoOneShotWatchOnTheNodesTheConfigCenterWatches() {
		runner("node-1").run((one) -> {
			await().atMost(WAIT).until(() -> fleet(one).size() == 1);
			app.write(ZNODE, "{\"shop\":{\"limit\":6,\"greeting\":\"v1\"}}");
			await().atMost(WAIT).untilAsserted(() -> assertThat(configOf(fleet(one)))
				.allSatisfy((context) -> assertThat(context).containsEntry("appliedVersion", 1)
					.containsEntry("status", "CURRENT")));
			// on a server before 3.9 one session keeps one watch mode per node: a one-shot watch set beside the
			// persistent one replaces it, and the node's next change would be the last one the instance hears of
			ZooKeeper zooKeeper = one.getBean(CuratorFramework.class).getZookeeperClient().getZooKeeper();
			List<String> watched = ContextWatchesView.persistent(zooKeeper);
			assertThat(watched).contains(ZNODE, "/config.meta/canary/orders");
			assertThat(ContextWatchesView.oneShot(zooKeeper)).as("one-shot watches of the instance's session")
				.doesNotContainAnyElementsOf(watched);
		});
	}

	@Test
	void anUnconvertibleChangeIsRefusedEverywhereWithTheKeyAndWithoutTheValue() {
		threeApps((one, two, three) -> {
			await().atMost(WAIT).until(() -> fleet(one).size() == 3);
			app.write(ZNODE, "{\"shop\":{\"limit\":\"secret-not-a-number\",\"greeting\":\"v0\"}}");
			await().atMost(WAIT).untilAsserted(() -> assertThat(configOf(fleet(three))).hasSize(3)
				.allSatisfy((context) -> assertThat(context).containsEntry("appliedVersion", 0)
					.containsEntry("latestVersion", 1)
					.containsEntry("status", "REFUSED")
					.hasEntrySatisfying("reason", (reason) -> assertThat((String) reason).contains("shop.limit"))));
			assertThat(fleet(one).toString()).doesNotContain("secret-not-a-number");
			for (String child : app.writer().getChildren().forPath("/fleet/orders")) {
				assertThat(new String(app.writer().getData().forPath("/fleet/orders/" + child), StandardCharsets.UTF_8))
					.doesNotContain("secret-not-a-number");
			}
		});
	}

	@Test
	void aStoppedInstanceDisappearsAndTheOthersSeeWhoLeadsAndWhatIsHeld() {
		runner("node-1").run((one) -> {
			runner("node-2").run((two) -> {
				await().atMost(WAIT).until(() -> fleet(one).size() == 2);
				await().atMost(WAIT).until(() -> fleet(two).stream().filter((i) -> Boolean.TRUE.equals(i.get("leader"))).count() == 1);
				Map<String, Object> leader = fleet(two).stream().filter((i) -> Boolean.TRUE.equals(i.get("leader"))).findFirst().orElseThrow();
				assertThat(((Number) leader.get("epoch")).longValue()).isPositive();
				two.getBean(ZkLockTemplate.class).execute("order-7", Duration.ofSeconds(5), () -> {
					await().atMost(WAIT).untilAsserted(() -> assertThat(instance(one, "node-2").get("locks"))
						.asString().contains("order-7"));
					return null;
				});
				await().atMost(WAIT).untilAsserted(() -> assertThat(instance(one, "node-2").get("locks")).asList().isEmpty());
				// the history names the key, as the list of held locks does, not the template's lock name
				assertThat(lockPeriods(instance(one, "node-2"), "order-7")).hasSize(1);
				handOffLocally(two.getBean(ZkLockTemplate.class), "order-8");
				await().atMost(WAIT).untilAsserted(() -> assertThat(lockPeriods(instance(one, "node-2"), "order-8")).hasSize(2));
				List<Map<String, Object>> handedOff = lockPeriods(instance(one, "node-2"), "order-8");
				// the first hold ends when its holder let go, before the waiting thread was handed the key
				assertThat(((Number) handedOff.get(0).get("end")).longValue())
					.isLessThanOrEqualTo(((Number) handedOff.get(1).get("start")).longValue());
			});
			await().atMost(WAIT).untilAsserted(() -> assertThat(fleet(one)).extracting((i) -> i.get("id"))
				.containsExactly("node-1"));
		});
	}

	/** Two holds of one key in one JVM: the second thread queues while the first holds, and is handed the key. */
	private static void handOffLocally(ZkLockTemplate template, String key) throws Exception {
		ExecutorService second = Executors.newSingleThreadExecutor();
		try {
			Future<Object> waiter = template.execute(key, Duration.ofSeconds(5), () -> {
				Future<Object> queued = second.submit(() -> template.execute(key, Duration.ofSeconds(5), () -> null));
				await().atMost(WAIT).until(() -> template.getHeldLocks().stream()
					.anyMatch((held) -> held.key().equals(key) && held.waitingThreads() == 1));
				return queued;
			});
			waiter.get(10, TimeUnit.SECONDS);
		}
		finally {
			second.shutdownNow();
		}
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> lockPeriods(Map<String, Object> instance, String key) {
		return ((List<Map<String, Object>>) instance.get("recent")).stream()
			.filter((period) -> "lock".equals(period.get("kind")) && key.equals(period.get("label")))
			.sorted(Comparator.comparing((period) -> ((Number) period.get("start")).longValue()))
			.toList();
	}

	@Test
	void anExpiredSessionPublishesTheNodeAgainUnderTheNewSession() throws Exception {
		// no leader election and no context node to watch: only the reconnection itself may write the node again
		app.writer().delete().forPath(ZNODE);
		runner("node-1").withPropertyValues("zk.leader.enabled=false", "shop.limit=1", "shop.greeting=file")
			.run((one) -> {
			CuratorFramework client = one.getBean(CuratorFramework.class);
			await().atMost(WAIT).until(() -> app.writer().checkExists().forPath("/fleet/orders/node-1") != null);
			long before = app.writer().checkExists().forPath("/fleet/orders/node-1").getEphemeralOwner();
			ZooKeeperExtension.expireSession(client);
			await().atMost(WAIT).untilAsserted(() -> {
				Stat stat = app.writer().checkExists().forPath("/fleet/orders/node-1");
				long session = client.getZookeeperClient().getZooKeeper().getSessionId();
				assertThat(stat).isNotNull();
				assertThat(stat.getEphemeralOwner()).isNotEqualTo(before).isEqualTo(session);
			});
			assertThat(fleet(one)).extracting((i) -> i.get("id")).containsExactly("node-1");
		});
	}

	@Test
	void whileDisconnectedTheFleetAnswersAtOnceWithTheLastListMarkedStale() {
		runner("node-1").run((one) -> {
			await().atMost(WAIT).until(() -> fleet(one).size() == 1);
			CuratorFramework client = one.getBean(CuratorFramework.class);
			app.zk().stopServer();
			try {
				await().atMost(WAIT).until(() -> !client.getZookeeperClient().isConnected());
				long start = System.nanoTime();
				List<Map<String, Object>> stale = fleet(one);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(500));
				assertThat(stale).singleElement()
					.satisfies((instance) -> assertThat(instance).containsEntry("id", "node-1").containsEntry("stale", true));
			}
			finally {
				app.zk().restartServer();
			}
			await().atMost(WAIT).untilAsserted(() -> assertThat(fleet(one)).singleElement()
				.satisfies((instance) -> assertThat(instance).doesNotContainKey("stale")));
		});
	}

	@Test
	void everyInstanceShowsThePublishedRevisionAndMessageAndAWriteOutsideTheTool() throws Exception {
		runner("node-1").run((one) -> {
			await().atMost(WAIT).untilAsserted(() -> assertThat(configOf(fleet(one))).singleElement()
				.satisfies((context) -> assertThat(context).containsEntry("writtenOutsideTool", true)));
			new ConfigPublisher(app.writer(), "/config").put("orders",
					"{\"shop\":{\"limit\":7,\"greeting\":\"v1\"}}".getBytes(StandardCharsets.UTF_8),
					Change.by("alice", "raise the limit"));
			await().atMost(WAIT).untilAsserted(() -> assertThat(configOf(fleet(one))).singleElement()
				.satisfies((context) -> assertThat(context).containsEntry("appliedVersion", 1)
					.containsEntry("revision", 2L)
					.containsEntry("revisionMessage", "raise the limit")
					.doesNotContainKey("writtenOutsideTool")));
			app.write(ZNODE, "{\"shop\":{\"limit\":8,\"greeting\":\"v1\"}}");
			await().atMost(WAIT).untilAsserted(() -> assertThat(configOf(fleet(one))).singleElement()
				.satisfies((context) -> assertThat(context).containsEntry("appliedVersion", 2)
					.containsEntry("writtenOutsideTool", true)
					.doesNotContainKey("revision")));
		});
	}

	private void threeApps(TriConsumer apps) {
		runner("node-1").run((one) -> runner("node-2").run((two) -> runner("node-3").run((three) -> {
			apps.accept(one, two, three);
		})));
	}

	private ApplicationContextRunner runner(String id) {
		return app.runner()
			.withPropertyValues("zk.config.snapshot-dir=" + app.snapshots().resolve(id), "zk.leader.id=" + id);
	}

	private static List<Map<String, Object>> fleet(AssertableApplicationContext context) {
		return context.getBean(ZkFleet.class).instances();
	}

	private static Map<String, Object> instance(AssertableApplicationContext context, String id) {
		return fleet(context).stream().filter((i) -> id.equals(i.get("id"))).findFirst().orElseThrow();
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> configOf(List<Map<String, Object>> instances) {
		return instances.stream().flatMap((i) -> ((List<Map<String, Object>>) i.get("config")).stream()).toList();
	}

	@FunctionalInterface
	interface TriConsumer {

		void accept(AssertableApplicationContext one, AssertableApplicationContext two,
				AssertableApplicationContext three) throws Exception;

	}

}
