package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.mock.env.MockEnvironment;

import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.client.InstanceId;
import dev.zkspring.fleet.FleetCanary;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.MemberApp;
import dev.zkspring.test.MemberApp.Shop;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A canary among three applications on one real server: only the instances in its set run the
 * candidate, they return to the base when they leave it, and the fleet view says who runs what.
 */
class ZkConfigCanaryIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(MemberApp.runner())
		.cleaning(CanaryFixture.META, CanaryFixture.ROOT, "/fleet")
		.with((runner) -> runner.withBean(Shop.class).withBean(FirstLoad.class).withPropertyValues("zk.session-timeout=10s"));

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String ORDERS = "/config/orders";

	private static final String BASE = "{\"shop\":{\"limit\":5,\"greeting\":\"base\"}}";

	private static final String CANDIDATE = "{\"shop\":{\"limit\":5,\"greeting\":\"candidate\"}}";

	@BeforeEach
	void setUp() throws Exception {
		ConfigTestSupport.write(app.writer(), ORDERS, BASE);
	}

	@Test
	void aCanaryToOneOfThreeChangesOnlyThatOneAndTheFleetShowsIt() {
		threeApps((one, two, three) -> {
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-2"), CANDIDATE);
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(two)));
			// the others have read the canary (they report its revision) and kept the base
			await().atMost(WAIT).untilAsserted(() -> assertThat(canaryStatus()).hasSize(3).allSatisfy((status) -> {
				assertThat(status.revision()).isEqualTo(1L);
				boolean member = status.instanceId().equals("node-2");
				assertThat(status.member()).isEqualTo(member);
				assertThat(status.runsCandidate()).isEqualTo(member);
				assertThat(status.status()).isEqualTo(member ? FleetCanary.CURRENT : null);
			}));
			assertThat(greeting(one)).isEqualTo("base");
			assertThat(greeting(three)).isEqualTo("base");
			// the snapshot says which it is
			await().atMost(WAIT).untilAsserted(() -> assertThat(snapshot("node-2")).contains("\"canary\"")
				.contains("\"revision\":1").contains("candidate"));
			assertThat(snapshot("node-1")).doesNotContain("\"canary\"").doesNotContain("candidate");
			// and a start from it (ZooKeeper down) runs the candidate again, knowing it for one
			assertThat(new ConfigSnapshotStore(ZkConfigSnapshotTests.snapshotFile(app.snapshots().resolve("node-2"))).read())
				.singleElement()
				.satisfies((source) -> {
					assertThat(source.getProperty("shop.greeting")).isEqualTo("candidate");
					assertThat(source.getCandidate()).isEqualTo(
							new ZnodePropertySource.Candidate(CanaryFixture.node("orders"), 0, 1,
									new ConfigCanary(1, List.of(), 0, 0, null, null, CANDIDATE).digest()));
				});
		});
	}

	@Test
	void endingTheCanaryReturnsTheMemberToTheBase() {
		threeApps((one, two, three) -> {
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-2"), CANDIDATE);
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(two)));
			CanaryFixture.end(app.writer(), "orders");
			await().atMost(WAIT).until(() -> "base".equals(greeting(two)));
			assertThat(canaryStatus()).isEmpty();
		});
	}

	@Test
	void anInstanceTakenOutOfTheSetReturnsToTheBaseAndTheOtherMemberStays() {
		threeApps((one, two, three) -> {
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-1", "node-2"), CANDIDATE);
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(one)) && "candidate".equals(greeting(two)));
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-1"), CANDIDATE);
			await().atMost(WAIT).until(() -> "base".equals(greeting(two)));
			assertThat(greeting(one)).isEqualTo("candidate");
			assertThat(greeting(three)).isEqualTo("base");
		});
	}

	@Test
	void aBasePublishedDuringTheCanaryReachesTheOthersAndTheMemberKeepsTheCandidate() {
		threeApps((one, two, three) -> {
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-2"), CANDIDATE);
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(two)));
			ConfigTestSupport.write(app.writer(), ORDERS, "{\"shop\":{\"limit\":5,\"greeting\":\"base-2\"}}");
			await().atMost(WAIT).until(() -> "base-2".equals(greeting(one)) && "base-2".equals(greeting(three)));
			// the member read the new base (its fleet entry is current at version 1) and still runs the candidate
			await().atMost(WAIT).untilAsserted(() -> assertThat(ordersContext(two)).containsEntry("appliedVersion", 1)
				.containsEntry("status", "CURRENT"));
			assertThat(greeting(two)).isEqualTo("candidate");
		});
	}

	@Test
	void aCandidateTheMemberCannotBindIsRefusedNamingTheKeyAndTheBaseStays() {
		threeApps((one, two, three) -> {
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-2"),
					"{\"shop\":{\"limit\":\"secret-not-a-number\",\"greeting\":\"candidate\"}}");
			await().atMost(WAIT).untilAsserted(() -> assertThat(canaryStatus())
				.filteredOn((status) -> status.instanceId().equals("node-2"))
				.singleElement()
				.satisfies((status) -> {
					assertThat(status.status()).isEqualTo(FleetCanary.REFUSED);
					assertThat(status.reason()).contains("shop.limit").doesNotContain("secret-not-a-number");
					assertThat(status.runsCandidate()).isFalse();
				}));
			assertThat(greeting(two)).isEqualTo("base");
			assertThat(two.getBean(Shop.class).limit).isEqualTo(5);
			for (String child : app.writer().getChildren().forPath("/fleet/orders")) {
				assertThat(new String(app.writer().getData().forPath("/fleet/orders/" + child), StandardCharsets.UTF_8))
					.doesNotContain("secret-not-a-number");
			}
		});
	}

	@Test
	void aMemberRestartedWithItsStableIdLoadsTheCandidateFromTheFirstLoad() throws Exception {
		CanaryFixture.start(app.writer(), "orders", 1, List.of("node-2"), CANDIDATE);
		for (int start = 0; start < 2; start++) {
			runner("node-2").run((two) -> {
				assertThat(two).hasNotFailed();
				assertThat(two.getBean(FirstLoad.class).greeting).isEqualTo("candidate");
			});
		}
		runner("node-9").run((other) -> assertThat(other.getBean(FirstLoad.class).greeting).isEqualTo("base"));
	}

	@Test
	void withoutAConfiguredIdTheGeneratedOneNamesTheInstanceForTheCanaryTheFleetAndTheElection() throws Exception {
		String generated = InstanceId.generated(new MockEnvironment().withProperty("server.port", "8123"));
		assertThat(generated).endsWith(":8123#" + ProcessHandle.current().pid());
		CanaryFixture.start(app.writer(), "orders", 1, List.of(generated), CANDIDATE);
		runner(null).withConfiguration(AutoConfigurations.of(ZkLeaderAutoConfiguration.class))
			.withPropertyValues("server.port=8123", "zk.leader.enabled=true")
			.run((context) -> {
				assertThat(context.getBean(FirstLoad.class).greeting).isEqualTo("candidate");
				assertThat(context.getBean(ZkLeaderElection.class).participantId()).isEqualTo(generated);
				assertThat(context.getBean(ZkFleet.class).instanceId()).isEqualTo(generated);
				await().atMost(WAIT).untilAsserted(() -> assertThat(canaryStatus()).singleElement()
					.satisfies((status) -> assertThat(status.status()).isEqualTo(FleetCanary.CURRENT)));
			});
	}

	@Test
	void anImportingMemberNamedInItsPackagedFileLoadsTheCandidateBeforeTheContextExists() throws Exception {
		CanaryFixture.start(app.writer(), "orders", 1, List.of("import-1"), CANDIDATE);
		try (ConfigurableApplicationContext context = ImportTestSupport.run((application) -> {
		}, ImportTestSupport.withDefaults("zk-canary-import-tests", app.zk(), app.snapshots().resolve("import")))) {
			assertThat(context.getBean(ConfigTestSupport.ShopProperties.class).getGreeting()).isEqualTo("candidate");
			assertThat(context.getBean(InstanceId.class).value()).isEqualTo("import-1");
		}
	}

	private List<FleetCanary> canaryStatus() throws Exception {
		return FleetCanary.read(app.writer(), "/fleet/orders", ORDERS);
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> ordersContext(AssertableApplicationContext context) {
		String id = context.getBean(ZkFleet.class).instanceId();
		Map<String, Object> instance = context.getBean(ZkFleet.class)
			.instances()
			.stream()
			.filter((i) -> i.get("id").equals(id))
			.findFirst()
			.orElseThrow();
		return ((List<Map<String, Object>>) instance.get("config")).stream()
			.filter((c) -> ORDERS.equals(c.get("znode")))
			.findFirst()
			.orElseThrow();
	}

	private String snapshot(String id) throws Exception {
		return Files.readString(ZkConfigSnapshotTests.snapshotFile(app.snapshots().resolve(id)));
	}

	private static String greeting(AssertableApplicationContext context) {
		return context.getBean(Shop.class).greeting;
	}

	private void threeApps(TriConsumer apps) {
		runner("node-1").run((one) -> runner("node-2").run((two) -> runner("node-3").run((three) -> {
			await().atMost(WAIT).until(() -> app.writer().getChildren().forPath("/fleet/orders").size() == 3);
			apps.accept(one, two, three);
		})));
	}

	private ApplicationContextRunner runner(@Nullable String id) {
		ApplicationContextRunner runner = app.runner()
			.withPropertyValues("zk.config.snapshot-dir=" + app.snapshots().resolve(String.valueOf(id)));
		return (id != null) ? runner.withPropertyValues("zk.leader.id=" + id) : runner;
	}

	@FunctionalInterface
	interface TriConsumer {

		void accept(AssertableApplicationContext one, AssertableApplicationContext two,
				AssertableApplicationContext three) throws Exception;

	}

	/** What the configuration said when the context was created, before any reload. */
	static class FirstLoad {

		final String greeting;

		FirstLoad(@Value("${shop.greeting}") String greeting) {
			this.greeting = greeting;
		}

	}

}
