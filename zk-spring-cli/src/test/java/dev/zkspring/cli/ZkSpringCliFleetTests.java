package dev.zkspring.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkCrashDetectionAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockContext;
import dev.zkspring.lock.ZkLockTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code fleet}, {@code leaders} and {@code locks} against two real applications on one real server. */
class ZkSpringCliFleetTests {

	@RegisterExtension
	static final CliServer zk = CliServer.server().cleaning("/config", "/config.meta", "/fleet", "/locks", "/leader");

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@TempDir
	Path dir;

	@BeforeEach
	void setUp() throws Exception {
		assertThat(CliRun.run(zk.connectString(), "{\"shop\":{\"limit\":5}}", "config", "put", "orders", "-").status())
			.isZero();
	}

	@Test
	void fleetListsEveryLiveInstanceWithItsContextsAndWhatItLeads() {
		runner("node-1").withConfiguration(AutoConfigurations.of(ZkCrashDetectionAutoConfiguration.class))
			.run((one) -> runner("node-2").run((two) -> {
			await().atMost(WAIT).until(() -> zk.client().getChildren().forPath("/fleet/orders").size() == 2);
			String leader = leaderOf(one, two);
			await().atMost(WAIT).untilAsserted(() -> {
				List<Map<String, Object>> instances = list(json("fleet", "--output", "json"), "instances");
				assertThat(instances).extracting((instance) -> instance.get("id")).containsExactly("node-1", "node-2");
				for (Map<String, Object> instance : instances) {
					assertThat(instance.get("application")).isEqualTo("orders");
					assertThat(instance.get("host")).isNotNull();
					List<Map<String, Object>> contexts = cast(instance.get("contexts"));
					assertThat(contexts).anySatisfy((context) -> {
						assertThat(context.get("znode")).isEqualTo("/config/orders");
						assertThat(context.get("status")).isEqualTo("CURRENT");
						assertThat(context.get("revision")).isEqualTo(1);
					});
					assertThat(values(instance.get("leads")))
						.isEqualTo(instance.get("id").equals(leader) ? List.of("/leader/orders") : List.of());
					// node-2 runs without crash detection: no state, and no field invented for it
					if (instance.get("id").equals("node-1")) {
						Map<String, Object> crash = cast(instance.get("crashDetection"));
						assertThat(crash.get("state")).isEqualTo("LISTENING");
						assertThat(crash.get("address")).isNotNull();
						assertThat(crash.get("deathsDetected")).isEqualTo(0);
						assertThat(crash).containsKeys("inbound", "watching", "sessionsEnded");
					}
					else {
						assertThat(instance).containsEntry("crashDetection", null);
					}
				}
			});
			CliRun table = CliRun.run(zk.connectString(), "", "fleet");
			assertThat(table.status()).isZero();
			assertThat(table.out()).contains("node-1").contains("node-2").contains("/config/orders@0 CURRENT")
				.contains("LISTENING w");
		}));
	}

	@Test
	void leadersNamesTheLeaderItsEpochAndEveryParticipant() {
		runner("node-1").run((one) -> runner("node-2").run((two) -> {
			String leader = leaderOf(one, two);
			long epoch = ((leader.equals("node-1")) ? one : two).getBean(ZkLeaderElection.class).epoch();
			await().atMost(WAIT).untilAsserted(() -> {
				List<Map<String, Object>> elections = list(json("leaders", "--output", "json"), "elections");
				assertThat(elections).hasSize(1);
				Map<String, Object> election = elections.get(0);
				assertThat(election.get("group")).isEqualTo("/leader/orders");
				assertThat(election.get("leader")).isEqualTo(leader);
				assertThat(((Number) election.get("epoch")).longValue()).isEqualTo(epoch);
				assertThat(election.get("since")).isNotNull();
				assertThat(values(election.get("participants"))).containsExactly("node-1", "node-2");
			});
			assertThat(CliRun.run(zk.connectString(), "", "leaders").out()).contains("/leader/orders").contains(leader);
		}));
	}

	@Test
	void locksShowTheHolderWithItsTokenAndTheInstanceWaiting() {
		// a thread each: on JDK 25 (not 17) with 2 cores, supplyAsync's default pool runs one task at a time
		ExecutorService threads = Executors.newFixedThreadPool(2);
		runner("node-1").run((one) -> runner("node-2").run((two) -> {
			CountDownLatch holding = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			CompletableFuture<Long> holder = CompletableFuture.supplyAsync(() -> one.getBean(ZkLockTemplate.class)
				.execute("order-42", Duration.ofSeconds(5), () -> {
					long token = ZkLockContext.current().getFencingToken();
					holding.countDown();
					release.await(30, TimeUnit.SECONDS);
					return token;
				}), threads);
			assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
			CompletableFuture<String> waiter = CompletableFuture.supplyAsync(() -> two.getBean(ZkLockTemplate.class)
				.execute("order-42", Duration.ofSeconds(30), () -> "second"), threads);
			try {
				await().atMost(WAIT).untilAsserted(() -> {
					List<Map<String, Object>> locks = list(json("locks", "--key", "order-42", "--output", "json"), "locks");
					assertThat(locks).hasSize(1);
					Map<String, Object> lock = locks.get(0);
					assertThat(lock.get("key")).isEqualTo("order-42");
					List<Map<String, Object>> holders = cast(lock.get("holders"));
					assertThat(holders).singleElement().satisfies((held) -> {
						assertThat(held.get("instance")).isEqualTo("node-1");
						assertThat(held.get("mode")).isEqualTo("EXCLUSIVE");
						assertThat(held.get("since")).isNotNull();
						assertThat(held.get("token")).isNotNull();
					});
					assertThat(values(lock.get("waiters"))).extracting((waiting) -> (Object) ((Map<?, ?>) waiting).get("instance"))
						.containsExactly("node-2");
				});
				CliRun table = CliRun.run(zk.connectString(), "", "locks");
				assertThat(table.out()).containsPattern("order-42 +holds +node-1").containsPattern("order-42 +waits +node-2");
			}
			finally {
				release.countDown();
			}
			long token = holder.get(10, TimeUnit.SECONDS);
			assertThat(waiter.get(10, TimeUnit.SECONDS)).isEqualTo("second");
			assertThat(token).isPositive();
			await().atMost(WAIT).untilAsserted(() -> assertThat(list(json("locks", "--output", "json"), "locks")).isEmpty());
		}));
		threads.shutdownNow();
	}

	@Test
	void readCommandsDocumentTheirExitStatusesAndAnExample() {
		for (String command : List.of("fleet", "leaders", "locks")) {
			CliRun help = CliRun.run(zk.connectString(), "", command, "--help");
			assertThat(help.out()).contains("--output").contains("Exit status:").contains("4  cannot reach ZooKeeper")
				.contains("Example:").contains("zk-spring " + command);
		}
		CliRun bad = CliRun.run(zk.connectString(), "", "fleet", "--output", "xml");
		assertThat(bad.status()).isEqualTo(Exits.USAGE);
	}

	private static String leaderOf(AssertableApplicationContext one, AssertableApplicationContext two) {
		await().atMost(WAIT).until(() -> one.getBean(ZkLeaderElection.class).isLeader()
				|| two.getBean(ZkLeaderElection.class).isLeader());
		return one.getBean(ZkLeaderElection.class).isLeader() ? "node-1" : "node-2";
	}

	private static Map<String, Object> json(String... args) {
		CliRun run = CliRun.run(zk.connectString(), "", args);
		assertThat(run.status()).as(run.err()).isZero();
		return cast(JSON.readValue(run.out(), Map.class));
	}

	private static List<Map<String, Object>> list(Map<String, Object> body, String field) {
		return cast(body.get(field));
	}

	private static List<Object> values(Object value) {
		return cast(value);
	}

	@SuppressWarnings("unchecked")
	private static <T> T cast(Object value) {
		return (T) value;
	}

	private ApplicationContextRunner runner(String id) {
		return new ApplicationContextRunner()
			.withInitializer((context) -> context.getBeanFactory()
				.setConversionService(ApplicationConversionService.getSharedInstance()))
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class, ZkAutoConfiguration.class,
					ZkRefreshAutoConfiguration.class, ZkLockAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
					ZkFleetAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + this.dir.resolve("snap-" + id),
					"spring.application.name=orders", "zk.session-timeout=10s", "zk.leader.id=" + id,
					"zk.leader.enabled=true");
	}

}
