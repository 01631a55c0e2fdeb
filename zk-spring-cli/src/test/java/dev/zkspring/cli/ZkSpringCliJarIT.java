package dev.zkspring.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** The built jar, run with {@code java -jar} as an operator runs it, after {@code package}. */
class ZkSpringCliJarIT {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path dir;

	@Test
	void theJarPublishesListsHistoryAndRollsBack() throws Exception {
		Path doc = this.dir.resolve("orders.json");
		Files.writeString(doc, "{\"shop\":{\"limit\":5}}");
		assertThat(jar("config", "put", "orders", doc.toString(), "--author", "alice", "--message", "first").status())
			.isZero();
		Files.writeString(doc, "{\"shop\":{\"limit\":6}}");
		assertThat(jar("config", "put", "orders", doc.toString(), "--author", "bob").status()).isZero();
		Result history = jar("config", "history", "orders");
		assertThat(history.out()).contains("alice").contains("first").contains("bob");
		assertThat(jar("config", "rollback", "orders", "--to", "1").status()).isZero();
		Result get = jar("config", "get", "orders");
		assertThat(get.out()).contains("\"limit\" : 5");
		assertThat(get.err()).contains("version 2");
		assertThat(jar("config", "put", "orders", this.dir.resolve("none.json").toString()).status())
			.isEqualTo(Exits.USAGE);
		assertThat(jar("--help").out()).contains("config").contains("Exit status");
	}

	@Test
	void theJarChecksAgainstAnApplicationJarWithoutMetadataFromItsClassFiles() throws Exception {
		Path app = AppJars.in(this.dir).compile("BOOT-INF/classes/", java.util.Map.of("acme.Mode",
				"package acme; public enum Mode { OPEN, SHUT; static { System.exit(42); } }", "acme.ShopProperties", """
						package acme;
						@org.springframework.boot.context.properties.ConfigurationProperties("acme.shop")
						public record ShopProperties(int limit, java.time.Duration timeout, Mode mode) {
						}
						"""), "-parameters").write("app.jar");
		Path doc = this.dir.resolve("shop.json");
		Files.writeString(doc, "{\"acme\":{\"shop\":{\"limit\":5,\"timeout\":\"1s\",\"mode\":\"half\"}}}");
		Result mistyped = jar("config", "put", "shop", doc.toString(), "--against", app.toString());
		assertThat(mistyped.status()).as(mistyped.err()).isEqualTo(Exits.REFUSED);
		assertThat(mistyped.err()).contains("key 'acme.shop.mode' does not convert to acme.Mode as the application "
				+ "declares it (one of [OPEN, SHUT])");
		Files.writeString(doc, "{\"acme\":{\"shop\":{\"limit\":5,\"mode\":\"shut\"}},\"other\":{\"key\":1}}");
		Result unchecked = jar("config", "put", "shop", doc.toString(), "--against", app.toString());
		assertThat(unchecked.status()).as(unchecked.err()).isEqualTo(Exits.UNCHECKED);
		assertThat(unchecked.err()).contains("key 'other.key' cannot be checked");
		Files.writeString(doc, "{\"acme\":{\"shop\":{\"limit\":5,\"mode\":\"shut\"}}}");
		assertThat(jar("config", "put", "shop", doc.toString(), "--against", app.toString()).status()).isZero();
	}

	@Test
	void twoProcessesPuttingAgainstTheSameVersionEndWithExactlyOneWritten() throws Exception {
		Path base = this.dir.resolve("base.json");
		Files.writeString(base, "{\"n\":0}");
		assertThat(jar("config", "put", "race", base.toString()).status()).isZero();
		List<Process> processes = new ArrayList<>();
		for (int i = 1; i <= 2; i++) {
			Path doc = this.dir.resolve("doc" + i + ".json");
			Files.writeString(doc, "{\"n\":" + i + "}");
			processes.add(start("config", "put", "race", doc.toString(), "--expect-version", "0", "--author", "p" + i));
		}
		List<Integer> statuses = new ArrayList<>();
		for (Process process : processes) {
			assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
			statuses.add(process.exitValue());
		}
		assertThat(statuses).containsExactlyInAnyOrder(Exits.DONE, Exits.CONFLICT);
		CuratorFramework client = zk.newClient();
		String winner = "{\"n\":" + (statuses.indexOf(Exits.DONE) + 1) + "}";
		assertThat(new String(client.getData().forPath("/config/race"), StandardCharsets.UTF_8)).isEqualTo(winner);
		assertThat(client.getChildren().forPath("/config.meta/history/race")).hasSize(2);
	}

	private Result jar(String... args) throws Exception {
		Process process = start(args);
		assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
		return new Result(process.exitValue(), Files.readString(this.dir.resolve("out-" + process.pid())),
				Files.readString(this.dir.resolve("err-" + process.pid())));
	}

	private Process start(String... args) throws IOException {
		List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-jar", System.getProperty("cli.jar", "target/zk-spring-cli.jar")));
		command.addAll(List.of(args));
		Path out = Files.createTempFile(this.dir, "out", "");
		Path err = Files.createTempFile(this.dir, "err", "");
		ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
		builder.environment().put("ZK_CONNECT", zk.connectString());
		Process process = builder.start();
		Files.move(out, this.dir.resolve("out-" + process.pid()));
		Files.move(err, this.dir.resolve("err-" + process.pid()));
		return process;
	}

	record Result(int status, String out, String err) {
	}

}
