package dev.zkspring.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/** The commands in process against a real server: output, exit statuses, nothing written on refusal. */
class ZkSpringCliTests {

	@RegisterExtension
	static final CliServer zk = CliServer.server().cleaning("/config", "/config.meta");

	@TempDir
	Path dir;

	@BeforeEach
	void setUp() throws Exception {
		// the credentials test leaves creator-only nodes of this identity behind
		zk.client().getZookeeperClient().getZooKeeper().addAuthInfo("digest", "alice:right".getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void putShowsKeysNotValuesAndGetPrintsTheDocumentAndItsVersion() throws Exception {
		assertThat(put("orders", "{\"shop\":{\"limit\":5,\"token\":\"s3cret\"}}", "--message", "first").status()).isZero();
		CliRun second = put("orders", "{\"shop\":{\"limit\":6,\"token\":\"s3cret\"}}", "--author", "bob");
		assertThat(second.status()).isZero();
		assertThat(second.out()).isEqualTo("~ shop.limit\n");
		assertThat(second.err()).contains("published context 'orders' revision 2 (node version 1");
		CliRun get = run("config", "get", "orders");
		assertThat(get.status()).isZero();
		assertThat(get.out()).contains("\"limit\" : 6").contains("\n");
		assertThat(get.err()).contains("context 'orders' version 1");
		CliRun shown = put("orders", "{\"shop\":{\"limit\":7,\"token\":\"s3cret\"}}", "--show-values");
		assertThat(shown.out()).isEqualTo("~ shop.limit: 6 -> 7\n");
		assertThat(second.out() + second.err()).doesNotContain("s3cret");
	}

	@Test
	void historyListsRevisionsNewestFirstWithAuthorMessageAndKeys() throws Exception {
		put("orders", "{\"a\":1}", "--author", "alice", "--message", "start");
		put("orders", "{\"a\":2,\"b\":1}", "--author", "bob", "--message", "raise a");
		CliRun history = run("config", "history", "orders");
		assertThat(history.status()).isZero();
		String[] lines = history.out().split("\n");
		assertThat(lines[0]).startsWith("REVISION");
		assertThat(lines[1]).startsWith("2 ").contains("bob").contains("raise a").contains("+b ~a");
		assertThat(lines[2]).startsWith("1 ").contains("alice").contains("start").contains("+a");
	}

	@Test
	void rollbackRestoresAnEarlierDocumentAsANewRevision() throws Exception {
		put("orders", "{\"a\":1}");
		put("orders", "{\"a\":2}");
		CliRun rollback = run("config", "rollback", "orders", "--to", "1", "--author", "carol");
		assertThat(rollback.status()).isZero();
		assertThat(rollback.err()).contains("revision 3");
		assertThat(data("/config/orders")).isEqualTo("{\"a\":1}");
		assertThat(run("config", "rollback", "orders", "--to", "9").status()).isEqualTo(Exits.USAGE);
	}

	@Test
	void aPutExpectingAStaleVersionExitsThreeAndWritesNothing() throws Exception {
		put("orders", "{\"a\":1}");
		put("orders", "{\"a\":2}");
		CliRun stale = put("orders", "{\"a\":3}", "--expect-version", "0");
		assertThat(stale.status()).isEqualTo(Exits.CONFLICT);
		assertThat(stale.err()).startsWith("zk-spring: context 'orders' is at version 1, not 0").endsWith("\n")
			.doesNotContain("\tat ");
		assertThat(data("/config/orders")).isEqualTo("{\"a\":2}");
	}

	@Test
	void badDocumentsAndNamesExitOneWithOneLineAndWriteNothing() throws Exception {
		put("orders", "{\"a\":1}");
		assertRefused(put("orders", "{\"a\":"), "context 'orders': malformed JSON at line 1");
		assertRefused(put("orders", ""), "the document is empty");
		assertRefused(put("orders", "[1]"), "not a JSON object");
		assertRefused(put("team/orders", "{}"), "it contains '/'");
		assertRefused(put("..", "{}"), "'.' and '..' are not context names");
		Path big = this.dir.resolve("big.json");
		Files.writeString(big, "{\"a\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}");
		assertRefused(run("config", "put", "orders", big.toString()), "over the limit of 1048576 bytes");
		Path latin1 = this.dir.resolve("latin1.json");
		Files.write(latin1, "{\"a\":\"gr\u00fc\u00dfe\"}".getBytes(StandardCharsets.ISO_8859_1));
		assertRefused(run("config", "put", "orders", latin1.toString()), "not valid UTF-8");
		assertThat(data("/config/orders")).isEqualTo("{\"a\":1}");
		assertThat(zk.client().getChildren().forPath("/config")).containsExactly("orders");
	}

	@Test
	void usageErrorsExitTwo() {
		assertThat(run("config", "put", "orders").status()).isEqualTo(Exits.USAGE);
		assertThat(run("config", "frobnicate").status()).isEqualTo(Exits.USAGE);
		assertThat(run("config", "put", "orders", this.dir.resolve("missing.json").toString()).status())
			.isEqualTo(Exits.USAGE);
		CliRun noEnsemble = CliRun.runWithEnv(Map.of(), "", "config", "get", "orders");
		assertThat(noEnsemble.status()).isEqualTo(Exits.USAGE);
		assertThat(noEnsemble.err()).contains("set --connect HOST:PORT[,...] or ZK_CONNECT");
	}

	@Test
	void anUnreachableEnsembleExitsFourWithinTheTimeout() {
		Instant start = Instant.now();
		CliRun run = CliRun.runWithEnv(Map.of(), "", "--connect", "127.0.0.1:1", "--timeout", "1s", "config", "get",
				"orders");
		assertThat(run.status()).isEqualTo(Exits.UNREACHABLE);
		assertThat(run.err()).contains("cannot reach ZooKeeper at 127.0.0.1:1 within 1s (--timeout)");
		assertThat(Duration.between(start, Instant.now())).isLessThan(Duration.ofSeconds(8));
	}

	@Test
	void wrongCredentialsExitFiveAndWriteNothing() throws Exception {
		Map<String, String> alice = Map.of("ZK_CONNECT", zk.connectString(), "ZK_AUTH", "digest:alice:right");
		Files.writeString(this.dir.resolve("doc.json"), "{\"a\":1}");
		assertThat(CliRun.runWithEnv(alice, "", "config", "put", "orders", this.dir.resolve("doc.json").toString())
			.status()).isZero();
		Map<String, String> mallory = Map.of("ZK_CONNECT", zk.connectString(), "ZK_AUTH", "digest:alice:wrong");
		CliRun denied = CliRun.runWithEnv(mallory, "", "config", "put", "orders", this.dir.resolve("doc.json").toString());
		assertThat(denied.status()).isEqualTo(Exits.DENIED);
		assertThat(denied.err()).contains("ZooKeeper refused access to /config/orders (NOAUTH)").doesNotContain("wrong");
	}

	@Test
	void exportAndImportRoundTripAndImportPublishesOnlyWhatDiffers() throws Exception {
		put("orders", "{\"a\":1}");
		put("billing", "{\"b\":1}");
		Path repo = this.dir.resolve("repo");
		assertThat(run("config", "export", repo.toString()).status()).isZero();
		assertThat(Files.readString(repo.resolve("orders.json"))).isEqualTo("{\"a\":1}");
		CliRun same = run("config", "import", repo.toString());
		assertThat(same.status()).isZero();
		assertThat(same.err()).contains("0 contexts differ");
		Files.writeString(repo.resolve("orders.json"), "{\"a\":2}");
		Files.writeString(repo.resolve("new.json"), "{\"n\":1}");
		CliRun dry = run("config", "import", repo.toString(), "--dry-run");
		assertThat(dry.err()).contains("dry run: 2 contexts differ");
		assertThat(data("/config/orders")).isEqualTo("{\"a\":1}");
		CliRun imported = run("config", "import", repo.toString(), "--message", "release 42");
		assertThat(imported.status()).isZero();
		assertThat(data("/config/orders")).isEqualTo("{\"a\":2}");
		assertThat(data("/config/new")).isEqualTo("{\"n\":1}");
		assertThat(run("config", "history", "billing").out().split("\n")).hasSize(2);
		Files.writeString(repo.resolve("broken.json"), "{");
		Files.writeString(repo.resolve("orders.json"), "{\"a\":3}");
		CliRun refused = run("config", "import", repo.toString());
		assertThat(refused.status()).isEqualTo(Exits.REFUSED);
		assertThat(refused.err()).contains("broken.json").contains("context 'broken'");
		assertThat(data("/config/orders")).isEqualTo("{\"a\":2}");
	}

	@Test
	void globalOptionsWorkBeforeAndAfterTheCommandAndDocumentsComeFromStdin() throws Exception {
		CliRun before = CliRun.runWithEnv(Map.of(), "{\"a\":1}", "--connect", zk.connectString(), "config", "put",
				"orders", "-");
		assertThat(before.status()).as(before.err()).isZero();
		CliRun after = CliRun.runWithEnv(Map.of(), "", "config", "get", "orders", "--connect", zk.connectString(),
				"--root", "/config");
		assertThat(after.status()).as(after.err()).isZero();
		assertThat(run("config", "put", "--help").out()).contains("--expect-version").contains("Exit status")
			.contains("Example");
	}

	private void assertRefused(CliRun run, String message) {
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.REFUSED);
		assertThat(run.err()).contains(message);
		assertThat(run.err().strip()).doesNotContain("\n");
	}

	private CliRun put(String context, String document, String... options) throws Exception {
		Path file = Files.createTempFile(this.dir, "doc", ".json");
		Files.writeString(file, document);
		String[] args = new String[3 + options.length];
		args[0] = "config";
		args[1] = "put";
		args[2] = context;
		String[] all = new String[4 + options.length];
		System.arraycopy(args, 0, all, 0, 3);
		all[3] = file.toString();
		System.arraycopy(options, 0, all, 4, options.length);
		return run(all);
	}

	private CliRun run(String... args) {
		return CliRun.run(zk.connectString(), "", args);
	}

	private String data(String path) throws Exception {
		return new String(zk.client().getData().forPath(path), StandardCharsets.UTF_8);
	}

}
