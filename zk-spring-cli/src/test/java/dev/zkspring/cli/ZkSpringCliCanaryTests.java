package dev.zkspring.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ConfigCanary;
import dev.zkspring.config.ConfigLayout;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.refresh.RefreshScope;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The canary commands against three real applications on one real server. */
class ZkSpringCliCanaryTests {

	@RegisterExtension
	static final CliServer zk = CliServer.server().cleaning("/config", "/config.meta", "/fleet");

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String CANARY = ConfigLayout.canaryNode("/config", "orders");

	@TempDir
	Path dir;

	@BeforeEach
	void setUp() throws Exception {
		assertThat(put("base").status()).isZero();
	}

	@Test
	void aCanaryToOneChangesOnlyItAndPromoteBringsTheOthers() throws Exception {
		apps((one, two, three) -> {
			CliRun canary = run("config", "canary", "orders", file("candidate", "5"), "--instances", "node-2", "-m", "try");
			assertThat(canary.status()).as(canary.err()).isZero();
			assertThat(canary.out()).isEqualTo("~ shop.greeting\n");
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(two)));
			assertThat(greeting(one)).isEqualTo("base");
			assertThat(greeting(three)).isEqualTo("base");
			await().atMost(WAIT).untilAsserted(() -> assertThat(run("config", "canary-status", "orders").out())
				.containsPattern("node-2 +yes +yes +2 +CURRENT"));
			CliRun status = run("config", "canary-status", "orders");
			assertThat(status.out()).containsPattern("node-1 +no +no +2 +-").containsPattern("node-3 +no +no");
			// a base published meanwhile reaches the others, and put says the member keeps the candidate
			CliRun base = put("base-2");
			assertThat(base.err()).contains("its members node-2 keep the candidate");
			await().atMost(WAIT).until(() -> "base-2".equals(greeting(one)) && "base-2".equals(greeting(three)));
			assertThat(greeting(two)).isEqualTo("candidate");
			// the candidate was made against base version 0: promoting it would silently undo base-2
			CliRun refused = run("config", "promote", "orders");
			assertThat(refused.status()).as(refused.err()).isEqualTo(Exits.CONFLICT);
			assertThat(refused.err()).contains("node version 0 then, it is at version 1 now");
			assertThat(greeting(one)).isEqualTo("base-2");
			CliRun promote = run("config", "promote", "orders", "--overwrite-base");
			assertThat(promote.status()).as(promote.err()).isZero();
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(one)) && "candidate".equals(greeting(three))
					&& "candidate".equals(greeting(two)));
			assertThat(zk.client().checkExists().forPath(CANARY)).isNull();
			assertThat(run("config", "history", "orders").out()).contains("promote canary revision 2");
		});
	}

	@Test
	void aCandidateTheMemberRefusesBlocksPromoteUntilForced() throws Exception {
		apps((one, two, three) -> {
			assertThat(run("config", "canary", "orders", file("candidate", "\"secret-x\""), "--instances", "node-2")
				.status()).isZero();
			await().atMost(WAIT).untilAsserted(() -> assertThat(run("config", "canary-status", "orders").out())
				.containsPattern("node-2 +yes +no +2 +REFUSED .*shop.limit"));
			CliRun refused = run("config", "promote", "orders");
			assertThat(refused.status()).isEqualTo(Exits.REFUSED);
			assertThat(refused.err()).contains("node-2 REFUSED").contains("shop.limit").doesNotContain("secret-x");
			assertThat(zk.client().checkExists().forPath(CANARY)).isNotNull();
			assertThat(greeting(one)).isEqualTo("base");
			CliRun forced = run("config", "promote", "orders", "--force");
			assertThat(forced.status()).as(forced.err()).isZero();
			assertThat(zk.client().checkExists().forPath(CANARY)).isNull();
			assertThat(run("config", "history", "orders").out()).contains("[forced: node-2 REFUSED");
		});
	}

	@Test
	void abortReturnsTheMemberAndARunningCanaryIsReplacedOnlyOnRequest() throws Exception {
		apps((one, two, three) -> {
			assertThat(run("config", "canary", "orders", file("candidate", "5"), "--instances", "node-2").status()).isZero();
			await().atMost(WAIT).until(() -> "candidate".equals(greeting(two)));
			byte[] before = zk.client().getData().forPath(CANARY);
			CliRun again = run("config", "canary", "orders", file("other", "5"), "--instances", "node-1");
			assertThat(again.status()).isEqualTo(Exits.CONFLICT);
			assertThat(again.err()).contains("already runs canary revision 2 on node-2").contains("--replace");
			assertThat(zk.client().getData().forPath(CANARY)).isEqualTo(before);
			CliRun abort = run("config", "abort", "orders");
			assertThat(abort.status()).as(abort.err()).isZero();
			await().atMost(WAIT).until(() -> "base".equals(greeting(two)));
			assertThat(zk.client().checkExists().forPath(CANARY)).isNull();
			assertThat(run("config", "history", "orders").out()).contains("abort canary revision 2");
		});
	}

	@Test
	void aCanaryByCountFixesTheSetAtCreation() throws Exception {
		apps((one, two, three) -> {
			List<List<String>> fixed = new java.util.ArrayList<>();
			runner("node-0").run((zero) -> {
				await().atMost(WAIT).until(() -> zk.client().getChildren().forPath("/fleet/orders").size() == 4);
				CliRun canary = run("config", "canary", "orders", file("candidate", "5"), "--count", "2");
				assertThat(canary.status()).as(canary.err()).isZero();
				fixed.add(ConfigCanary.parse(zk.client().getData().forPath(CANARY)).instances());
				assertThat(fixed.get(0)).containsExactly("node-0", "node-1");
				await().atMost(WAIT).until(() -> "candidate".equals(zero.getBean(Shop.class).greeting)
						&& "candidate".equals(greeting(one)));
			});
			// an instance going leaves the set as it was, shown as not live
			await().atMost(WAIT).until(() -> zk.client().getChildren().forPath("/fleet/orders").size() == 3);
			assertThat(ConfigCanary.parse(zk.client().getData().forPath(CANARY)).instances()).isEqualTo(fixed.get(0));
			assertThat(run("config", "canary-status", "orders").out()).containsPattern("node-0 +yes .*not live");
			// an instance coming is not added
			runner("node-4").run((four) -> {
				await().atMost(WAIT).until(() -> zk.client().getChildren().forPath("/fleet/orders").size() == 4);
				assertThat(four.getBean(Shop.class).greeting).isEqualTo("base");
				assertThat(ConfigCanary.parse(zk.client().getData().forPath(CANARY)).instances()).isEqualTo(fixed.get(0));
			});
			assertThat(greeting(two)).isEqualTo("base");
			assertThat(greeting(three)).isEqualTo("base");
			CliRun tooMany = run("config", "canary", "orders", file("other", "5"), "--count", "9", "--replace");
			assertThat(tooMany.status()).isEqualTo(Exits.USAGE);
			assertThat(tooMany.err()).contains("--count 9: only 3 live instances");
			assertThat(run("config", "canary", "--help").out()).contains("--count").contains("--instances")
				.contains("--replace");
		});
	}

	private void apps(Apps apps) {
		runner("node-1").run((one) -> runner("node-2").run((two) -> runner("node-3").run((three) -> {
			await().atMost(WAIT).until(() -> zk.client().getChildren().forPath("/fleet/orders").size() == 3);
			apps.accept(one, two, three);
		})));
	}

	private ApplicationContextRunner runner(String id) {
		return new ApplicationContextRunner()
			.withInitializer((context) -> context.getBeanFactory()
				.setConversionService(ApplicationConversionService.getSharedInstance()))
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
					ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class, ZkFleetAutoConfiguration.class))
			.withBean(Shop.class)
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + this.dir.resolve("snap-" + id),
					"spring.application.name=orders", "zk.session-timeout=10s", "zk.leader.id=" + id);
	}

	private static String greeting(AssertableApplicationContext context) {
		return context.getBean(Shop.class).greeting;
	}

	private CliRun put(String greeting) throws Exception {
		return run("config", "put", "orders", file(greeting, "5"));
	}

	private String file(String greeting, String limit) throws Exception {
		Path file = Files.createTempFile(this.dir, "doc", ".json");
		Files.writeString(file, "{\"shop\":{\"limit\":" + limit + ",\"greeting\":\"" + greeting + "\"}}",
				StandardCharsets.UTF_8);
		return file.toString();
	}

	private static CliRun run(String... args) {
		return CliRun.run(zk.connectString(), "", args);
	}

	@FunctionalInterface
	interface Apps {

		void accept(AssertableApplicationContext one, AssertableApplicationContext two,
				AssertableApplicationContext three) throws Exception;

	}

	@RefreshScope
	static class Shop {

		@Value("${shop.limit}")
		int limit;

		@Value("${shop.greeting}")
		String greeting;

	}

}
