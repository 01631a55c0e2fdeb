package dev.zkspring.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --output json} of the read commands: the documented field names, and never a value unless asked for. */
class ZkSpringCliJsonOutputTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@TempDir
	Path dir;

	@AfterEach
	void cleanUp() throws Exception {
		try (CuratorFramework client = zk.newClient()) {
			for (String path : new String[] { "/config", "/config.meta" }) {
				if (client.checkExists().forPath(path) != null) {
					client.delete().deletingChildrenIfNeeded().forPath(path);
				}
			}
		}
	}

	@Test
	void getHistoryDiffAndCanaryStatusAnswerInJsonWithTheDocumentedFields() throws Exception {
		assertThat(run("-", "{\"shop\":{\"limit\":5,\"secret\":\"s3cret\"}}", "config", "put", "orders", "-", "-m", "first")
			.status()).isZero();
		assertThat(run("-", "{\"shop\":{\"limit\":6,\"secret\":\"s3cret\"}}", "config", "put", "orders", "-", "--author",
				"bob").status()).isZero();
		Map<?, ?> get = json("config", "get", "orders", "--output", "json");
		assertThat(get.get("context")).isEqualTo("orders");
		assertThat(get.get("version")).isEqualTo(1);
		assertThat((String) get.get("document")).contains("\"limit\":6");
		Map<?, ?> history = json("config", "history", "orders", "--output", "json");
		List<?> revisions = (List<?>) history.get("revisions");
		assertThat(revisions).hasSize(2);
		assertThat(map(revisions.get(0))).containsEntry("revision", 2).containsEntry("version", 1)
			.containsEntry("author", "bob").containsEntry("kind", "put").containsEntry("changed", List.of("shop.limit"))
			.containsKeys("time", "message", "added", "removed");
		Path file = this.dir.resolve("next.json");
		Files.writeString(file, "{\"shop\":{\"limit\":7,\"secret\":\"other\",\"new\":1}}");
		CliRun diff = CliRun.run(zk.connectString(), "", "config", "diff", "orders", file.toString(), "--output", "json");
		assertThat(diff.out()).doesNotContain("other").doesNotContain("s3cret");
		assertThat(map(JSON.readValue(diff.out(), Map.class))).containsEntry("added", List.of("shop.new"))
			.containsEntry("changed", List.of("shop.limit", "shop.secret")).containsEntry("removed", List.of());
		Map<String, Object> canary = json("config", "canary-status", "orders", "--output", "json");
		assertThat(canary).containsEntry("canary", null).containsEntry("instances", List.of());
		Path repo = Files.createDirectories(this.dir.resolve("repo"));
		Files.writeString(repo.resolve("jobs.json"), "{\"zk\":{\"quartz\":{\"jobs\":{\"r\":{\"cron\":\"nope\"}}}}}");
		CliRun validate = CliRun.runWithEnv(Map.of(), "", "config", "validate", repo.toString(), "--output", "json");
		assertThat(validate.status()).isEqualTo(Exits.REFUSED);
		Map<?, ?> findings = JSON.readValue(validate.out(), Map.class);
		assertThat(findings.get("files")).isEqualTo(1);
		assertThat(map(((List<?>) findings.get("findings")).get(0))).containsEntry("file", "jobs.json")
			.containsEntry("key", "zk.quartz.jobs.r.cron").containsEntry("severity", "error");
	}

	private static CliRun run(String ignored, String stdin, String... args) {
		return CliRun.run(zk.connectString(), stdin, args);
	}

	private static Map<String, Object> json(String... args) throws Exception {
		CliRun run = CliRun.run(zk.connectString(), "", args);
		assertThat(run.status()).as(run.err()).isZero();
		return map(JSON.readValue(run.out(), Map.class));
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> map(Object value) {
		return (Map<String, Object>) value;
	}

}
