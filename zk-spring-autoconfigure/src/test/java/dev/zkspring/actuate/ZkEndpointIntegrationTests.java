package dev.zkspring.actuate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.SecurityContext;

import dev.zkspring.autoconfigure.ZkEndpointAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockContext;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.publish.Change;
import dev.zkspring.publish.ConfigPublisher;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The {@code zookeeper} endpoint against a real server: config keys and their sources, held locks, leadership. */
class ZkEndpointIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture
		.server(ZkAppFixture.app(ZkLeaderAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkFleetAutoConfiguration.class, ZkEndpointAutoConfiguration.class))
		.cleaning("/config", "/config.meta", "/fleet")
		.with((runner) -> runner.withPropertyValues("zk.leader.enabled=true", "zk.leader.id=node-1",
				"management.endpoints.web.exposure.include=zookeeper"));

	private static final Duration WAIT = Duration.ofSeconds(20);

	@BeforeEach
	void setUp() throws Exception {
		app.write("/config/application", "{\"shop\":{\"greeting\":\"base\",\"password\":\"pw-app\"}}");
		app.write("/config/orders", "{\"shop\":{\"greeting\":\"hello\",\"items\":\"a\"}}");
	}

	@Test
	@SuppressWarnings("unchecked")
	void theFleetSelectorListsEveryLiveInstanceWithItsConfigurationStatus() {
		app.runner().run((context) -> {
			ZkEndpoint endpoint = context.getBean(ZkEndpoint.class);
			await().atMost(WAIT).untilAsserted(() -> assertThat(
					(List<Map<String, Object>>) endpoint.section("fleet").get("instances"))
				.singleElement()
				.satisfies((instance) -> assertThat(instance).containsEntry("id", "node-1")
					.containsEntry("leader", true)
					.containsEntry("config", List.of(
							Map.of("znode", "/config/orders", "appliedVersion", 0, "latestVersion", 0, "status", "CURRENT",
									"writtenOutsideTool", true),
							Map.of("znode", "/config/application", "appliedVersion", 0, "latestVersion", 0, "status",
									"CURRENT", "writtenOutsideTool", true)))));
			assertThat(endpoint.section("fleet").toString()).doesNotContain("hello").doesNotContain("pw-app");
			assertThat(endpoint.section("nothing")).isNull();
		});
	}

	@Test
	@SuppressWarnings("unchecked")
	void aStrangersNodeHoldingJsonNullIsListedAsUnreadableBesideTheInstances() throws Exception {
		app.runner().run((context) -> {
			ZkEndpoint endpoint = context.getBean(ZkEndpoint.class);
			await().atMost(WAIT).until(() -> ((List<?>) endpoint.section("fleet").get("instances")).size() == 1);
			app.writer().create().withMode(CreateMode.EPHEMERAL).forPath("/fleet/orders/stranger",
					"null".getBytes(StandardCharsets.UTF_8));
			Map<String, Object> fleet = endpoint.section("fleet");
			assertThat((List<Map<String, Object>>) fleet.get("instances")).extracting((instance) -> instance.get("id"))
				.containsExactly("node-1", "stranger");
			assertThat(((List<Map<String, Object>>) fleet.get("instances")).get(1)).containsKey("unreadable");
			assertThat(fleet).containsEntry("omitted", 0);
		});
	}

	@Test
	void showsEachKeysWinningSourceWithValuesMaskedByDefault() {
		app.runner().withPropertyValues("shop.items=from-properties").run((context) -> {
			Map<String, Object> body = context.getBean(ZkEndpoint.class).zookeeper(SecurityContext.NONE);
			Map<String, Map<String, Object>> keys = keys(body);
			assertThat(keys).containsOnlyKeys("shop.greeting", "shop.password", "shop.items");
			assertThat(keys.get("shop.greeting")).containsEntry("source", "znode /config/orders")
				.containsEntry("version", 0)
				.containsEntry("value", SanitizableData.SANITIZED_VALUE);
			assertThat(keys.get("shop.password")).containsEntry("source", "znode /config/application");
			assertThat(keys.get("shop.items")).containsEntry("source", "test");
			assertThat(body.toString()).doesNotContain("hello").doesNotContain("pw-app");
			assertThat(contexts(body)).extracting((described) -> described.get("znode"))
				.containsExactly("/config/orders", "/config/application");
		});
	}

	@Test
	void showValuesAlwaysStillMasksWhatTheSanitizingFunctionsMask() {
		app.runner().withPropertyValues("management.endpoint.zookeeper.show-values=always")
			.withBean(SanitizingFunction.class, () -> SanitizingFunction.sanitizeValue().ifLikelySensitive())
			.run((context) -> {
				Map<String, Map<String, Object>> keys = keys(
						context.getBean(ZkEndpoint.class).zookeeper(SecurityContext.NONE));
				assertThat(keys.get("shop.greeting")).containsEntry("value", "hello");
				assertThat(keys.get("shop.password")).containsEntry("value", SanitizableData.SANITIZED_VALUE);
			});
	}

	@Test
	void listsTheLocksThisJvmHoldsWithModeTokenSinceAndWaitingThreads() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			app.runner().run((context) -> {
				ZkEndpoint endpoint = context.getBean(ZkEndpoint.class);
				ZkLockTemplate template = context.getBean(ZkLockTemplate.class);
				assertThat(locks(endpoint)).isEmpty();
				CountDownLatch held = new CountDownLatch(1);
				CountDownLatch release = new CountDownLatch(1);
				long[] token = new long[1];
				Future<?> holder = threads.submit(() -> template.execute("order-42", Duration.ofSeconds(5), () -> {
					token[0] = ZkLockContext.current().getFencingToken();
					held.countDown();
					return release.await(30, TimeUnit.SECONDS);
				}));
				assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
				Future<?> waiter = threads.submit(() -> template.execute("order-42", Duration.ofSeconds(20), () -> 1));
				await().atMost(WAIT).until(() -> locks(endpoint).size() == 1
						&& locks(endpoint).get(0).get("waitingThreads").equals(1));
				assertThat(locks(endpoint).get(0)).containsEntry("key", "order-42")
					.containsEntry("mode", ZkLock.Mode.MUTEX.name())
					.containsEntry("token", token[0])
					.containsKey("since");
				release.countDown();
				holder.get(10, TimeUnit.SECONDS);
				waiter.get(10, TimeUnit.SECONDS);
				assertThat(locks(endpoint)).isEmpty();
			});
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void showsTheGroupItsLeaderParticipantsEpochAndSince() {
		Instant started = Instant.now().minusSeconds(1);
		app.runner().run((context) -> {
			ZkEndpoint endpoint = context.getBean(ZkEndpoint.class);
			await().atMost(WAIT).until(() -> group(endpoint).get("leader").equals(true));
			Map<String, Object> group = group(endpoint);
			assertThat(group).containsEntry("me", "node-1")
				.containsEntry("leaderId", "node-1")
				.containsEntry("participants", List.of("node-1"));
			assertThat((Long) group.get("epoch")).isPositive();
			assertThat(Instant.parse((String) group.get("since"))).isBetween(started, Instant.now());
		});
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Map<String, Object>> keys(Map<String, Object> body) {
		return (Map<String, Map<String, Object>>) ((Map<String, Object>) body.get("config")).get("keys");
	}

	@Test
	void eachContextShowsThePublishedRevisionAndMessageBesideItsVersionOrThatItWasWrittenOutsideTheTool()
			throws Exception {
		app.runner().run((context) -> {
			ZkEndpoint endpoint = context.getBean(ZkEndpoint.class);
			assertThat(contexts(endpoint.zookeeper(SecurityContext.NONE)))
				.allSatisfy((described) -> assertThat(described).containsEntry("writtenOutsideTool", true));
			new ConfigPublisher(app.writer(), "/config").put("orders",
					"{\"shop\":{\"greeting\":\"hi\"}}".getBytes(StandardCharsets.UTF_8), Change.by("alice", "say hi"));
			await().atMost(WAIT).untilAsserted(() -> assertThat(contexts(endpoint.zookeeper(SecurityContext.NONE)))
				.filteredOn((described) -> "/config/orders".equals(described.get("znode")))
				.singleElement()
				.satisfies((described) -> assertThat(described).containsEntry("version", 1)
					.containsEntry("revision", 2L)
					.containsEntry("revisionMessage", "say hi")
					.doesNotContainKey("writtenOutsideTool")));
		});
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> contexts(Map<String, Object> body) {
		return (List<Map<String, Object>>) ((Map<String, Object>) body.get("config")).get("contexts");
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> locks(ZkEndpoint endpoint) {
		return (List<Map<String, Object>>) endpoint.zookeeper(SecurityContext.NONE).get("locks");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> group(ZkEndpoint endpoint) {
		return (Map<String, Object>) ((Map<String, Object>) endpoint.zookeeper(SecurityContext.NONE)
			.get("leadership")).get("/leader/orders");
	}

}
