package dev.zkspring.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/**
 * A canary under faults: nodes that are not a canary's, a candidate that is not a document, a connection
 * cut and a session expired while the canary changes.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigCanaryFaultTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner)
		.cleaning(CanaryFixture.META, CanaryFixture.ROOT);

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String ORDERS = "/config/orders";

	private static final String CANDIDATE = "{\"shop\":{\"greeting\":\"candidate\"}}";

	@RegisterExtension
	final ProxiedApp proxy = new ProxiedApp(app, (runner) -> runner.withBean(ConfigTestSupport.EventRecorder.class)
		.withPropertyValues("zk.leader.id=node-1"));

	@BeforeEach
	void setUp() throws Exception {
		ConfigTestSupport.write(app.writer(), ORDERS, "{\"shop\":{\"greeting\":\"base\"}}");
	}

	@Test
	void aMalformedCanaryNodeIsRefusedNamingItsZnodeAndTheBaseStays(CapturedOutput output) {
		List<String> malformed = List.of("{\"revision\":1,\"instances\":[\"node-1\"],\"document\":\"{\\\"shop\\\":{\\\"greeting\\\":\\\"secret-in-bad-json\\\"}",
				"this is not json secret-raw",
				"{\"revision\":1,\"document\":\"{\\\"shop\\\":{\\\"greeting\\\":\\\"secret-no-set\\\"}}\"}",
				"{\"revision\":1,\"instances\":[\"node-1\"],\"document\":{\"shop\":{\"greeting\":\"secret-object\"}}}",
				"{\"revision\":1,\"instances\":[\"node-1\"],\"document\":\"[\\\"secret-array\\\"]\"}");
		List<String> reasons = List.of("not valid JSON", "not valid JSON", "field 'instances' is missing",
				"field 'document' is not the candidate document as one JSON string", "not a JSON object");
		this.proxy.runner().run((context) -> {
			ConfigTestSupport.EventRecorder events = context.getBean(ConfigTestSupport.EventRecorder.class);
			for (int i = 0; i < malformed.size(); i++) {
				int refused = events.rejections.size();
				CanaryFixture.writeRaw(app.writer(), "orders", malformed.get(i));
				await().atMost(WAIT).until(() -> events.rejections.size() > refused);
				ZkConfigRejectedEvent rejection = events.rejections.get(events.rejections.size() - 1);
				assertThat(rejection.getZnode()).isEqualTo(CanaryFixture.node("orders"));
				assertThat(rejection.getReason()).contains(reasons.get(i)).doesNotContain("secret");
				assertThat(greeting(context)).isEqualTo("base");
			}
			assertThat(output).contains("Refused the canary in znode /config.meta/canary/orders").doesNotContain("secret");
			// a good canary after the bad ones is applied
			CanaryFixture.start(app.writer(), "orders", 2, List.of("node-1"), CANDIDATE);
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(context)));
		});
	}

	@Test
	void aMemberStartingWithAMalformedCanaryStartsOnTheBase(CapturedOutput output) throws Exception {
		CanaryFixture.writeRaw(app.writer(), "orders", "{\"revision\":1,\"instances\":[\"node-1\"],\"document\":\"[]\"}");
		this.proxy.runner().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(greeting(context)).isEqualTo("base");
			assertThat(output).contains("Refused the canary in znode /config.meta/canary/orders (version 0)");
		});
	}

	@Test
	void aMemberStartingWithACandidateItCannotBindFailsNamingTheKeyAndTheCanaryNode(CapturedOutput output)
			throws Exception {
		CanaryFixture.start(app.writer(), "orders", 1, List.of("node-1"),
				"{\"shop\":{\"owner\":{\"age\":\"secret-not-an-age\"}}}");
		assertThatException().isThrownBy(() -> ConfigTestSupport.run("--" + app.zk().connectProperty(),
				"--zk.config.snapshot-dir=" + app.snapshots(), "--zk.leader.id=node-1", "--spring.main.banner-mode=off")
			.close());
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Correct the value of 'shop.owner.age' in znode /config.meta/canary/orders")
			.doesNotContain("secret-not-an-age");
		// an instance outside the set starts on the base
		ConfigTestSupport.run("--" + app.zk().connectProperty(), "--zk.config.snapshot-dir=" + app.snapshots().resolve("other"),
				"--zk.leader.id=node-2", "--spring.main.banner-mode=off").close();
	}

	@Test
	void anEncryptedCandidateValueReachesTheMemberAndStaysCiphertextInItsSnapshot(CapturedOutput output) {
		String key = ConfigCipher.generateKey();
		String encrypted = ConfigCipher.ofKey(key).encryptFor("shop.greeting", "secret-candidate-password");
		this.proxy.runner().withPropertyValues(ConfigCipher.KEY_PROPERTY + "=" + key).run((context) -> {
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-1"),
					"{\"shop\":{\"greeting\":\"" + encrypted + "\"}}");
			await().atMost(WAIT).until(() -> "secret-candidate-password".equals(greeting(context)));
			Path snapshot = ZkConfigSnapshotTests.snapshotFile(app.snapshots());
			await().atMost(WAIT).untilAsserted(() -> assertThat(Files.readString(snapshot)).contains(encrypted)
				.contains("\"canary\""));
			assertThat(Files.readString(snapshot)).doesNotContain("secret-candidate-password");
		});
		assertThat(output).doesNotContain("secret-candidate-password");
	}

	@Test
	void aCanaryEndedWhileTheConnectionIsCutIsNoticedOnReconnect() {
		this.proxy.runner().run((context) -> {
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-1"), CANDIDATE);
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(context)));
			CuratorFramework client = context.getBean(CuratorFramework.class);
			long session = ProxiedApp.session(client);
			this.proxy.cutUntilDisconnected(client);
			CanaryFixture.end(app.writer(), "orders");
			this.proxy.heal();
			await().atMost(WAIT).until(() -> "base".equals(greeting(context)));
			assertThat(ProxiedApp.session(client)).as("the same session").isEqualTo(session);
		});
	}

	@Test
	void aCanaryStartedWhileTheSessionExpiredIsAppliedOnTheNewSession() {
		this.proxy.runner().run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			long session = ProxiedApp.session(client);
			this.proxy.cutAndExpire(client);
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-1"), CANDIDATE);
			this.proxy.heal();
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(context)));
			assertThat(ProxiedApp.session(client)).as("a new session").isNotEqualTo(session);
			// and the new session's watch sees the end of it
			CanaryFixture.end(app.writer(), "orders");
			await().atMost(WAIT).until(() -> "base".equals(greeting(context)));
		});
	}

	@Test
	void writingHistoryOrAnotherContextsCanaryReloadsNothing() throws Exception {
		this.proxy.runner().run((context) -> {
			ConfigTestSupport.EventRecorder events = context.getBean(ConfigTestSupport.EventRecorder.class);
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-1"), CANDIDATE);
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(context)));
			int changes = events.changes.size();
			List<String> handled = new CopyOnWriteArrayList<>();
			CountDownLatch ours = new CountDownLatch(1);
			context.getBean(ZkConfigWatcher.class).onChangeHandled((event) -> {
				handled.add(event.getPath());
				if (event.getPath().equals(CanaryFixture.node("orders"))) {
					ours.countDown();
				}
			});
			ConfigTestSupport.write(app.writer(), ConfigLayout.historyNode(CanaryFixture.ROOT, "orders"), "{\"revision\":1}");
			ConfigTestSupport.write(app.writer(), ConfigLayout.canaryNode(CanaryFixture.ROOT, "payments"), "{}");
			// a write the watcher does handle, after them: once it is seen, the two before it were passed over
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-1"), CANDIDATE);
			assertThat(ours.await(20, TimeUnit.SECONDS)).isTrue();
			assertThat(handled).containsExactly(CanaryFixture.node("orders"));
			assertThat(events.changes).hasSize(changes);
			assertThat(events.rejections).isEmpty();
		});
	}

	private static String greeting(ConfigurableApplicationContext context) {
		return context.getEnvironment().getProperty("shop.greeting");
	}

}
