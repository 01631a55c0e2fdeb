package dev.zkspring.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code config validate DIR}: every context file checked as {@code put} checks one, with no ZooKeeper at all. */
class ZkSpringCliValidateTests {

	@TempDir
	Path dir;

	private Path metadata;

	private Path repo;

	@BeforeEach
	void setUp() throws Exception {
		this.metadata = this.dir.resolve("spring-configuration-metadata.json");
		try (var in = getClass().getResourceAsStream("/shop-metadata.json")) {
			Files.copy(in, this.metadata);
		}
		this.repo = Files.createDirectories(this.dir.resolve("repo"));
	}

	@Test
	void aBadCronAndABadTypeAreRefusedNamingFileAndKeyWithoutZooKeeper() throws Exception {
		write("orders.json", "{\"shop\":{\"limit\":5},\"zk\":{\"quartz\":{\"jobs\":{\"report\":{\"cron\":\"61 * * * * ?\"}}}}}");
		write("orders,prod.json", "{\"shop\":{\"limit\":\"five\",\"timeout\":\"10s\"}}");
		write("billing.json", "{\"shop\":{\"enabled\":true}}");
		Files.writeString(this.repo.resolve("README.md"), "not a context");
		CliRun run = validate(this.repo.toString(), "--against", this.metadata.toString());
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.REFUSED);
		assertThat(run.out()).contains("orders.json:zk.quartz.jobs.report.cron: error: zk.quartz.jobs.report.cron is "
				+ "not a valid Quartz cron expression")
			.contains("orders,prod.json:shop.limit: error: key 'shop.limit' does not convert to java.lang.Integer")
			.doesNotContain("billing.json")
			.doesNotContain("five")
			.doesNotContain("61 *");
		assertThat(run.err()).contains("3 context file(s)").contains("2 error(s)");
	}

	@Test
	void jobSettingsAreCheckedWithoutAgainstToo() throws Exception {
		write("jobs.json", "{\"zk\":{\"quartz\":{\"jobs\":{"
				+ "\"a\":{\"cron\":\"0 0/5 * * * ?\",\"interval\":\"5s\"},"
				+ "\"b\":{\"interval\":\"0s\"},"
				+ "\"c\":{\"shards\":0},"
				+ "\"d\":{\"shards\":2,\"shard-parameters\":\"0=Beijing,1=Shanghai,2=Shenzhen\"},"
				+ "\"e\":{\"shards\":3,\"shard-parameters\":\"Beijing,Shanghai\"},"
				+ "\"f\":{\"shards\":2,\"shard-parameters\":{\"0\":\"Beijing\",\"5\":\"Shanghai\"}},"
				+ "\"ok\":{\"cron\":\"0 0/5 * * * ?\",\"shards\":2,\"shard-parameters\":\"0=Beijing,1=Shanghai\"}}}}}");
		CliRun run = validate(this.repo.toString());
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.REFUSED);
		assertThat(run.out()).contains("jobs.json:zk.quartz.jobs.a: error: zk.quartz.jobs.a sets both cron and interval")
			.contains("jobs.json:zk.quartz.jobs.b.interval: error: zk.quartz.jobs.b.interval must be positive")
			.contains("jobs.json:zk.quartz.jobs.c.shards: error: zk.quartz.jobs.c.shards must be from 1 to 1000")
			.contains("jobs.json:zk.quartz.jobs.d.shard-parameters: error: zk.quartz.jobs.d.shard-parameters entry 3 "
					+ "names a shard index outside 0 to zk.quartz.jobs.d.shards - 1")
			.contains("jobs.json:zk.quartz.jobs.e.shard-parameters: error: zk.quartz.jobs.e.shard-parameters entry 1 is "
					+ "not index=parameter")
			// a map of parameters is checked as the text form is: index 5 is outside 0 to 1
			.contains("jobs.json:zk.quartz.jobs.f.shard-parameters: error: zk.quartz.jobs.f.shard-parameters entry 2 "
					+ "names a shard index outside 0 to zk.quartz.jobs.f.shards - 1")
			.doesNotContain("zk.quartz.jobs.ok")
			.doesNotContain("Shenzhen");
		assertThat(run.out().lines().count()).isEqualTo(6);
	}

	@Test
	void aCleanDirectoryPassesAndADocumentThatIsNotJsonIsNamed() throws Exception {
		write("orders.json", "{\"shop\":{\"limit\":5},\"zk\":{\"quartz\":{\"jobs\":{\"report\":{\"cron\":\"0 0/5 * * * ?\"}}}}}");
		CliRun clean = validate(this.repo.toString());
		assertThat(clean.status()).as(clean.err()).isZero();
		assertThat(clean.out()).isEmpty();
		write("broken.json", "{\"shop\":");
		CliRun broken = validate(this.repo.toString());
		assertThat(broken.status()).isEqualTo(Exits.REFUSED);
		assertThat(broken.out()).startsWith("broken.json: error: context 'broken': ");
		assertThat(validate(this.dir.resolve("none").toString()).status()).isEqualTo(Exits.USAGE);
	}

	private void write(String name, String json) throws Exception {
		Files.writeString(this.repo.resolve(name), json);
	}

	private static CliRun validate(String... args) {
		String[] all = new String[args.length + 2];
		all[0] = "config";
		all[1] = "validate";
		System.arraycopy(args, 0, all, 2, args.length);
		// no ZK_CONNECT: the command must not need ZooKeeper
		return CliRun.runWithEnv(Map.of(), "", all);
	}

}
