package dev.zkspring.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ConfigLayout;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code config apply DIR}: a directory made the truth, against a real server and a real application. */
class ZkSpringCliApplyTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final Duration WAIT = Duration.ofSeconds(20);

	@TempDir
	Path dir;

	private Path repo;

	private CuratorFramework client;

	@BeforeEach
	void setUp() throws Exception {
		this.client = zk.newClient();
		this.repo = Files.createDirectories(this.dir.resolve("repo"));
	}

	@AfterEach
	void cleanUp() throws Exception {
		ApplyCommand.afterPlan = () -> {
		};
		for (String path : new String[] { "/config", "/config.meta" }) {
			if (this.client.checkExists().forPath(path) != null) {
				this.client.delete().deletingChildrenIfNeeded().forPath(path);
			}
		}
	}

	@Test
	void threeContextsAreAppliedToARunningApplicationAndARerunWritesNothing() throws Exception {
		write("application", "{\"shop\":{\"greeting\":\"hello\"}}");
		write("orders", "{\"shop\":{\"limit\":5}}");
		write("orders,prod", "{\"shop\":{\"limit\":7}}");
		CliRun first = apply("--message", "release 1");
		assertThat(first.status()).as(first.err()).isZero();
		assertThat(first.out()).contains("create    application").contains("create    orders,prod")
			.contains("    + shop.limit").contains("3 to create, 0 to change, 0 unchanged, 0 to delete");
		new ApplicationContextRunner()
			.withInitializer((context) -> context.getBeanFactory()
				.setConversionService(ApplicationConversionService.getSharedInstance()))
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
					ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class))
			.withBean(Shop.class)
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + this.dir.resolve("snap"),
					"spring.application.name=orders", "spring.profiles.active=prod")
			.run((app) -> {
				assertThat(app.getBean(Shop.class).limit).isEqualTo(7);
				assertThat(app.getBean(Shop.class).greeting).isEqualTo("hello");
				Stat before = stat("orders");
				long revisions = revisions("orders");
				CliRun second = apply("--message", "release 1 again");
				assertThat(second.status()).as(second.err()).isZero();
				assertThat(second.out()).contains("0 to create, 0 to change, 3 unchanged, 0 to delete");
				assertThat(second.err()).contains("0 context(s) written");
				assertThat(stat("orders").getMzxid()).isEqualTo(before.getMzxid());
				assertThat(revisions("orders")).isEqualTo(revisions);
				// a change reaches the application; the plan names the key, never its value
				write("orders,prod", "{\"shop\":{\"limit\":9}}");
				CliRun third = apply();
				assertThat(third.status()).as(third.err()).isZero();
				assertThat(third.out()).contains("change    orders,prod (node version 0)").contains("    ~ shop.limit")
					.doesNotContain("9");
				await().atMost(WAIT).until(() -> app.getBean(Shop.class).limit == 9);
				assertThat(run("config", "history", "orders,prod").out()).contains("release 1");
			});
	}

	@Test
	void aContextChangedBetweenPlanAndWriteIsAConflictAndNothingAfterItIsWritten() throws Exception {
		write("a", "{\"k\":1}");
		write("b", "{\"k\":1}");
		write("c", "{\"k\":1}");
		assertThat(apply().status()).isZero();
		write("a", "{\"k\":2}");
		write("b", "{\"k\":2}");
		write("c", "{\"k\":2}");
		Stat c = stat("c");
		ApplyCommand.afterPlan = () -> {
			try {
				// someone else publishes b after the plan read it
				this.client.setData().forPath("/config/b", "{\"k\":3}".getBytes(StandardCharsets.UTF_8));
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		};
		CliRun conflict = apply();
		assertThat(conflict.status()).as(conflict.err()).isEqualTo(Exits.CONFLICT);
		assertThat(conflict.err()).contains("context 'b' changed since the plan read it at node version 0")
			.contains("written before it: a").contains("run config apply again");
		assertThat(new String(this.client.getData().forPath("/config/a"), StandardCharsets.UTF_8)).isEqualTo("{\"k\":2}");
		assertThat(new String(this.client.getData().forPath("/config/b"), StandardCharsets.UTF_8)).isEqualTo("{\"k\":3}");
		assertThat(stat("c").getMzxid()).isEqualTo(c.getMzxid());
		// a re-run completes it: b and c changed, a already in force
		ApplyCommand.afterPlan = () -> {
		};
		CliRun rerun = apply();
		assertThat(rerun.status()).as(rerun.err()).isZero();
		assertThat(rerun.out()).contains("unchanged a").contains("change    b").contains("change    c");
		assertThat(new String(this.client.getData().forPath("/config/c"), StandardCharsets.UTF_8)).isEqualTo("{\"k\":2}");
	}

	@Test
	void pruneDeletesAContextTheDirectoryLacksAndKeepsItsHistory() throws Exception {
		write("keep", "{\"k\":1}");
		write("gone", "{\"k\":1}");
		assertThat(apply().status()).isZero();
		Files.delete(this.repo.resolve("gone.json"));
		CliRun withoutPrune = apply();
		assertThat(withoutPrune.out()).doesNotContain("gone");
		CliRun dryRun = apply("--prune", "--dry-run", "--output", "json");
		assertThat(dryRun.status()).as(dryRun.err()).isZero();
		assertThat(dryRun.out()).contains("\"context\" : \"gone\"").contains("\"action\" : \"delete\"")
			.contains("\"removed\" : [ \"k\" ]").contains("\"dryRun\" : true");
		assertThat(this.client.checkExists().forPath("/config/gone")).isNotNull();
		CliRun pruned = apply("--prune", "-m", "retire gone");
		assertThat(pruned.status()).as(pruned.err()).isZero();
		assertThat(pruned.out()).contains("delete    gone (node version 0)").contains("    - k");
		assertThat(this.client.checkExists().forPath("/config/gone")).isNull();
		assertThat(this.client.checkExists().forPath("/config/keep")).isNotNull();
		CliRun history = run("config", "history", "gone");
		assertThat(history.out()).contains("retire gone").containsPattern("2 +-1 ");
		assertThat(run("config", "rollback", "gone", "--to", "1").status()).isZero();
		assertThat(this.client.checkExists().forPath("/config/gone")).isNotNull();
		assertThat(apply("--prune").out()).contains("delete    gone");
	}

	@Test
	void aRunningCanaryIsRefusedNamingItUnlessForced() throws Exception {
		write("orders", "{\"shop\":{\"limit\":1}}");
		assertThat(apply().status()).isZero();
		Path candidate = this.dir.resolve("candidate.json");
		Files.writeString(candidate, "{\"shop\":{\"limit\":2}}");
		this.client.create().creatingParentsIfNeeded().forPath("/fleet/orders/node-1");
		CliRun canary = run("config", "canary", "orders", candidate.toString(), "--instances", "node-1");
		assertThat(canary.status()).as(canary.err()).isZero();
		write("orders", "{\"shop\":{\"limit\":3}}");
		Stat before = stat("orders");
		CliRun refused = apply();
		assertThat(refused.status()).isEqualTo(Exits.CONFLICT);
		assertThat(refused.err()).contains("a canary runs on context(s) orders").contains("--force");
		assertThat(stat("orders").getMzxid()).isEqualTo(before.getMzxid());
		CliRun forced = apply("--force");
		assertThat(forced.status()).as(forced.err()).isZero();
		assertThat(stat("orders").getVersion()).isEqualTo(before.getVersion() + 1);
		this.client.delete().deletingChildrenIfNeeded().forPath("/fleet");
	}

	@Test
	void anInvalidFileRefusesTheWholeDirectoryBeforeAnythingIsWritten() throws Exception {
		write("a", "{\"k\":1}");
		write("b", "{\"k\":");
		CliRun run = apply();
		assertThat(run.status()).isEqualTo(Exits.REFUSED);
		assertThat(run.err()).contains("file b.json: context 'b'");
		assertThat(this.client.checkExists().forPath("/config/a")).isNull();
		assertThat(run("config", "apply", "--help").out()).contains("--prune").contains("Exit status").contains("Example");
	}

	private void write(String context, String json) throws Exception {
		Files.writeString(this.repo.resolve(context + ".json"), json, StandardCharsets.UTF_8);
	}

	private Stat stat(String context) throws Exception {
		return this.client.checkExists().forPath("/config/" + context);
	}

	private long revisions(String context) throws Exception {
		return this.client.getChildren().forPath(ConfigLayout.historyNode("/config", context)).size();
	}

	private CliRun apply(String... args) {
		String[] all = new String[args.length + 3];
		all[0] = "config";
		all[1] = "apply";
		all[2] = this.repo.toString();
		System.arraycopy(args, 0, all, 3, args.length);
		return run(all);
	}

	private static CliRun run(String... args) {
		return CliRun.run(zk.connectString(), "", args);
	}

	@RefreshScope
	static class Shop {

		@Value("${shop.limit}")
		int limit;

		@Value("${shop.greeting}")
		String greeting;

	}

}
