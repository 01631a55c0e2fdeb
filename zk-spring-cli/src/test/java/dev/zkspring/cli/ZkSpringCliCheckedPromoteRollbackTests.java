package dev.zkspring.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.zkspring.config.ConfigLayout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rollback and promote publish a document too: {@code --against}/{@code --strict} check it as put does, and a
 * promote does not replace a base document that moved since its canary started.
 */
class ZkSpringCliCheckedPromoteRollbackTests {

	@RegisterExtension
	static final CliServer zk = CliServer.server().cleaning("/config", "/config.meta");

	private static final String CANARY = ConfigLayout.canaryNode("/config", "orders");

	private static final String GOOD = "{\"shop\":{\"limit\":5}}";

	@TempDir
	Path dir;

	private Path metadata() throws Exception {
		return CliServer.shopMetadata(this.dir);
	}

	@Test
	void aRollbackToADocumentPutAgainstRefusesIsRefusedTheSameWay() throws Exception {
		assertThat(run("config", "put", "orders", file("{\"shop\":{\"limit\":\"five\"}}")).status()).isZero();
		assertThat(run("config", "put", "orders", file("{\"shop\":{\"limt\":5}}")).status()).isZero();
		assertThat(run("config", "put", "orders", file(GOOD)).status()).isZero();
		CliRun put = run("config", "put", "orders", file("{\"shop\":{\"limit\":\"five\"}}"), "--against",
				metadata().toString());
		CliRun rollback = run("config", "rollback", "orders", "--to", "1", "--against", metadata().toString());
		assertThat(rollback.status()).as(rollback.err()).isEqualTo(Exits.REFUSED).isEqualTo(put.status());
		assertThat(rollback.err()).contains("key 'shop.limit' does not convert to java.lang.Integer")
			.contains("nothing was written")
			.isEqualTo(put.err());
		CliRun strict = run("config", "rollback", "orders", "--to", "2", "--against", metadata().toString(),
				"--strict");
		assertThat(strict.status()).as(strict.err()).isEqualTo(Exits.REFUSED);
		assertThat(strict.err()).contains("key 'shop.limt' is not declared").contains("(--strict)");
		assertThat(document()).isEqualTo(GOOD);
		assertThat(run("config", "rollback", "orders", "--to", "2", "--against", metadata().toString()).status())
			.isZero();
	}

	@Test
	void aPromoteOfACandidatePutAgainstRefusesIsRefusedTheSameWay() throws Exception {
		assertThat(run("config", "put", "orders", file(GOOD)).status()).isZero();
		assertThat(run("config", "canary", "orders", file("{\"shop\":{\"limit\":\"five\"}}"), "--instances", "node-9")
			.status()).isZero();
		// --force: no member is live, the check against the metadata still applies
		CliRun promote = run("config", "promote", "orders", "--force", "--against", metadata().toString());
		assertThat(promote.status()).as(promote.err()).isEqualTo(Exits.REFUSED);
		assertThat(promote.err()).contains("key 'shop.limit' does not convert to java.lang.Integer")
			.contains("nothing was written");
		assertThat(document()).isEqualTo(GOOD);
		assertThat(zk.client().checkExists().forPath(CANARY)).isNotNull();
		assertThat(run("config", "canary", "orders", file("{\"shop\":{\"limt\":5}}"), "--instances", "node-9",
				"--replace").status()).isZero();
		CliRun strict = run("config", "promote", "orders", "--force", "--against", metadata().toString(), "--strict");
		assertThat(strict.status()).as(strict.err()).isEqualTo(Exits.REFUSED);
		assertThat(strict.err()).contains("(--strict)");
		assertThat(document()).isEqualTo(GOOD);
	}

	@Test
	void aPromoteRefusesToReplaceAHotfixPutWhileTheCanaryRanUnlessToldTo() throws Exception {
		assertThat(run("config", "put", "orders", file(GOOD)).status()).isZero();
		assertThat(run("config", "canary", "orders", file("{\"shop\":{\"limit\":9}}"), "--instances", "node-9")
			.status()).isZero();
		String hotfix = "{\"shop\":{\"limit\":6}}";
		assertThat(run("config", "put", "orders", file(hotfix), "-m", "hotfix").status()).isZero();
		CliRun promote = run("config", "promote", "orders", "--force");
		assertThat(promote.status()).as(promote.err()).isEqualTo(Exits.CONFLICT);
		assertThat(promote.err()).contains("canary revision 2").contains("node version 0").contains("version 1 now")
			.contains("--overwrite-base")
			.contains("nothing was written");
		assertThat(document()).isEqualTo(hotfix);
		assertThat(zk.client().checkExists().forPath(CANARY)).isNotNull();
		CliRun overwrite = run("config", "promote", "orders", "--force", "--overwrite-base");
		assertThat(overwrite.status()).as(overwrite.err()).isZero();
		assertThat(document()).isEqualTo("{\"shop\":{\"limit\":9}}");
		assertThat(run("config", "history", "orders").out()).contains("over base version 1");
		assertThat(run("config", "promote", "--help").out()).contains("--overwrite-base");
	}

	private String document() throws Exception {
		return new String(zk.client().getData().forPath("/config/orders"), StandardCharsets.UTF_8);
	}

	private String file(String document) throws Exception {
		Path file = Files.createTempFile(this.dir, "doc", ".json");
		Files.writeString(file, document, StandardCharsets.UTF_8);
		return file.toString();
	}

	private static CliRun run(String... args) {
		return CliRun.run(zk.connectString(), "", args);
	}

}
