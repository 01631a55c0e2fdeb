package dev.zkspring.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The built jar, run with {@code java -jar} as a pipeline runs it: a directory validated (Quartz's cron parser is
 * in the jar), applied, re-applied with nothing written, changed behind the tool's back; {@code fleet} listing a
 * running application's instance.
 */
class ZkSpringCliDirectoryJarIT {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path dir;

	@Test
	void theJarValidatesAppliesAndReappliesADirectory() throws Exception {
		Path repo = Files.createDirectories(this.dir.resolve("repo"));
		Files.writeString(repo.resolve("application.json"), "{\"shop\":{\"greeting\":\"hi\"}}");
		Files.writeString(repo.resolve("orders.json"), "{\"zk\":{\"quartz\":{\"jobs\":{\"r\":{\"cron\":\"61 * * * * ?\"}}}}}");
		Files.writeString(repo.resolve("orders,prod.json"), "{\"shop\":{\"limit\":7}}");
		Result invalid = jar("config", "validate", repo.toString());
		assertThat(invalid.status()).as(invalid.err()).isEqualTo(Exits.REFUSED);
		assertThat(invalid.out()).startsWith("orders.json:zk.quartz.jobs.r.cron: error: ");
		Files.writeString(repo.resolve("orders.json"), "{\"zk\":{\"quartz\":{\"jobs\":{\"r\":{\"cron\":\"0 * * * * ?\"}}}}}");
		assertThat(jar("config", "validate", repo.toString()).status()).isZero();
		Result first = jar("config", "apply", repo.toString(), "--message", "release 1");
		assertThat(first.status()).as(first.err()).isZero();
		assertThat(first.out()).contains("3 to create");
		Result second = jar("config", "apply", repo.toString(), "--output", "json");
		assertThat(second.status()).as(second.err()).isZero();
		assertThat(second.out()).contains("\"unchanged\" : 3");
		assertThat(second.err()).contains("0 context(s) written");
		CuratorFramework client = zk.newClient();
		client.setData().forPath("/config/orders,prod", "{\"shop\":{\"limit\":8}}".getBytes(StandardCharsets.UTF_8));
		Result drift = jar("config", "apply", repo.toString(), "--dry-run");
		assertThat(drift.status()).isZero();
		assertThat(drift.out()).contains("change    orders,prod").contains("~ shop.limit");
		assertThat(jar("config", "apply", repo.toString()).status()).isZero();
		assertThat(new String(client.getData().forPath("/config/orders,prod"), StandardCharsets.UTF_8)).contains("7");
	}

	@Test
	void theJarListsARunningInstanceInTheFleet() {
		new ApplicationContextRunner()
			.withInitializer((context) -> context.getBeanFactory()
				.setConversionService(ApplicationConversionService.getSharedInstance()))
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class, ZkAutoConfiguration.class,
					ZkRefreshAutoConfiguration.class, ZkFleetAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + this.dir.resolve("snap"),
					"spring.application.name=orders", "zk.leader.id=node-7")
			.run((app) -> {
				await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
					Result fleet = jar("fleet", "--app", "orders", "--output", "json");
					assertThat(fleet.status()).as(fleet.err()).isZero();
					assertThat(fleet.out()).contains("\"id\" : \"node-7\"").contains("\"application\" : \"orders\"");
				});
				Result table = jar("fleet");
				assertThat(table.out()).contains("node-7");
			});
	}

	private Result jar(String... args) throws IOException, InterruptedException {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-jar", System.getProperty("cli.jar", "target/zk-spring-cli.jar")));
		command.addAll(List.of(args));
		Path out = Files.createTempFile(this.dir, "out", "");
		Path err = Files.createTempFile(this.dir, "err", "");
		ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
		builder.environment().put("ZK_CONNECT", zk.connectString());
		Process process = builder.start();
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return new Result(process.exitValue(), Files.readString(out), Files.readString(err));
	}

	record Result(int status, String out, String err) {
	}

}
