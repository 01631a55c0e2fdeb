package dev.zkspring.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code config import} writes every context that differs or none, in one transaction; a refusal names the
 * node that refused it, for {@code put} as for {@code import}.
 */
class ZkSpringCliImportTests {

	@RegisterExtension
	static final CliServer zk = CliServer.server().cleaning("/config", "/config.meta");

	/** Read, and change the ACL back for the clean-up; never write. */
	private static final int READ_ONLY = ZooDefs.Perms.READ | ZooDefs.Perms.ADMIN;

	@TempDir
	Path dir;

	@BeforeEach
	void setUp() throws Exception {
		for (String context : List.of("a", "b", "c")) {
			assertThat(run("config", "put", context, file(this.dir.resolve("first"), context, 1)).status()).isZero();
		}
	}

	@AfterEach
	void cleanUp() throws Exception {
		if (zk.client().checkExists().forPath("/config/c") != null) {
			zk.client().setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/config/c");
		}
	}

	@Test
	void anImportTheThirdContextsAclRefusesWritesNoContextAndNamesTheNode() throws Exception {
		// the third context may be read by anyone and written by no one
		zk.client().setACL().withACL(List.of(new ACL(READ_ONLY, ZooDefs.Ids.ANYONE_ID_UNSAFE))).forPath("/config/c");
		Path repo = this.dir.resolve("repo");
		for (String context : List.of("a", "b", "c")) {
			file(repo, context, 2);
		}
		CliRun run = run("config", "import", repo.toString(), "-m", "release 2");
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.DENIED);
		assertThat(run.err()).contains("ZooKeeper refused access to /config/c").doesNotContain("null")
			.contains("nothing was written");
		assertThat(run.out()).isEmpty();
		for (String context : List.of("a", "b", "c")) {
			assertThat(document(context)).as(context).contains("\"limit\":1");
			assertThat(run("config", "history", context).out().lines().count()).as(context).isEqualTo(2);
		}
		// with the ACL lifted the same import writes all three
		zk.client().setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/config/c");
		CliRun again = run("config", "import", repo.toString(), "-m", "release 2");
		assertThat(again.status()).as(again.err()).isZero();
		assertThat(again.err()).contains("3 contexts differ and were published");
		for (String context : List.of("a", "b", "c")) {
			assertThat(document(context)).as(context).contains("\"limit\":2");
		}
	}

	@Test
	void aPutTheNodesAclRefusesNamesTheNode() throws Exception {
		zk.client().setACL().withACL(List.of(new ACL(READ_ONLY, ZooDefs.Ids.ANYONE_ID_UNSAFE))).forPath("/config/c");
		CliRun run = run("config", "put", "c", file(this.dir.resolve("second"), "c", 2));
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.DENIED);
		assertThat(run.err()).contains("ZooKeeper refused access to /config/c").doesNotContain("null");
		assertThat(document("c")).contains("\"limit\":1");
	}

	@Test
	void anImportTooLargeForOneTransactionIsRefusedWholeAndEachHalfIsPublished() throws Exception {
		// each context alone fits in a transaction (its document and its revision), the two together do not
		String large = "x".repeat(300 * 1024);
		Path repo = this.dir.resolve("large");
		Files.createDirectories(repo.resolve("one"));
		Files.createDirectories(repo.resolve("two"));
		for (String context : List.of("a", "b")) {
			String document = "{\"limit\":2,\"filler\":\"" + large + "\"}";
			Files.writeString(repo.resolve(context + ".json"), document);
			Files.writeString(repo.resolve(context.equals("a") ? "one" : "two").resolve(context + ".json"), document);
		}
		CliRun run = run("config", "import", repo.toString());
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.REFUSED);
		assertThat(run.err()).contains("more than one ZooKeeper transaction carries").contains("smaller groups")
			.contains("nothing was written");
		assertThat(document("a")).contains("\"limit\":1");
		assertThat(document("b")).contains("\"limit\":1");
		assertThat(run("config", "import", repo.resolve("one").toString()).status()).isZero();
		assertThat(run("config", "import", repo.resolve("two").toString()).status()).isZero();
		assertThat(document("a")).contains("\"limit\":2");
		assertThat(document("b")).contains("\"limit\":2");
	}

	private String document(String context) throws Exception {
		return new String(zk.client().getData().forPath("/config/" + context), StandardCharsets.UTF_8);
	}

	private static String file(Path dir, String context, int limit) throws Exception {
		Files.createDirectories(dir);
		Path file = dir.resolve(context + ".json");
		Files.writeString(file, "{\"limit\":" + limit + "}", StandardCharsets.UTF_8);
		return file.toString();
	}

	private static CliRun run(String... args) {
		return CliRun.run(zk.connectString(), "", args);
	}

}
