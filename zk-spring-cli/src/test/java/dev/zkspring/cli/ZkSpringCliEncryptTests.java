package dev.zkspring.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.zkspring.config.ConfigCipher;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code config encrypt}, and {@code --against} checking the types of {@code {cipher}} values. */
class ZkSpringCliEncryptTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final String KEY = ConfigCipher.generateKey();

	@TempDir
	Path dir;

	private Path metadata;

	private CuratorFramework client;

	@BeforeEach
	void setUp() throws Exception {
		this.client = zk.newClient();
		this.metadata = this.dir.resolve("spring-configuration-metadata.json");
		try (var in = getClass().getResourceAsStream("/shop-metadata.json")) {
			Files.copy(in, this.metadata);
		}
	}

	@AfterEach
	void cleanUp() throws Exception {
		for (String path : new String[] { "/config", "/config.meta" }) {
			if (this.client.checkExists().forPath(path) != null) {
				this.client.delete().deletingChildrenIfNeeded().forPath(path);
			}
		}
	}

	@Test
	void encryptReadsTheValueFromStdinAndPrintsWhatTheInstancesDecrypt() {
		CliRun run = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY), "s3cret-pw\n", "config", "encrypt");
		assertThat(run.status()).as(run.err()).isZero();
		String sealed = run.out().strip();
		assertThat(sealed).startsWith("{cipher}").doesNotContain("s3cret-pw");
		assertThat(ConfigCipher.ofKey(KEY).decrypt(sealed)).isEqualTo("s3cret-pw");
		assertThat(run.err()).doesNotContain("s3cret-pw");
	}

	@Test
	void encryptWithAKeyIdWritesThatId() {
		CliRun run = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY), "pw", "config", "encrypt",
				"--key-id", "r2026");
		assertThat(run.status()).as(run.err()).isZero();
		assertThat(run.out().strip()).startsWith("{cipher:r2026}");
		assertThat(ConfigCipher.empty().withKey("r2026", KEY).decrypt(run.out().strip())).isEqualTo("pw");
	}

	@Test
	void encryptWithoutAKeyOrValueIsAUsageErrorNamingWhatToSet() {
		CliRun noKey = CliRun.runWithEnv(Map.of(), "pw", "config", "encrypt");
		assertThat(noKey.status()).isEqualTo(Exits.USAGE);
		assertThat(noKey.err()).contains("ZK_CONFIG_ENCRYPTION_KEY is not set");
		CliRun badKey = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", "c2hvcnQ="), "pw", "config", "encrypt");
		assertThat(badKey.status()).isEqualTo(Exits.USAGE);
		assertThat(badKey.err()).doesNotContain("c2hvcnQ=");
		CliRun noValue = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY), "", "config", "encrypt");
		assertThat(noValue.status()).isEqualTo(Exits.USAGE);
		assertThat(noValue.err()).contains("stdin held no value");
	}

	@Test
	void againstChecksTheTypeOfAnEncryptedValueWhenTheKeyIsThere() throws Exception {
		String sealed = ConfigCipher.ofKey(KEY).encrypt("five");
		CliRun run = put("{\"shop\":{\"limit\":\"" + sealed + "\"}}", Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY));
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.REFUSED);
		assertThat(run.err()).contains("key 'shop.limit' does not convert to java.lang.Integer").doesNotContain("five");
		assertThat(this.client.checkExists().forPath("/config/orders")).isNull();
		String good = ConfigCipher.ofKey(KEY).encrypt("5");
		assertThat(put("{\"shop\":{\"limit\":\"" + good + "\"}}", Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY)).status())
			.isZero();
	}

	@Test
	void againstSkipsTheTypeOfAnEncryptedValueWithANoteWhenNoKeyIsThere() throws Exception {
		String sealed = ConfigCipher.ofKey(KEY).encrypt("five");
		CliRun run = put("{\"shop\":{\"limit\":\"" + sealed + "\"}}", Map.of());
		assertThat(run.status()).as(run.err()).isZero();
		assertThat(run.err()).contains("note: context 'orders': key 'shop.limit' is encrypted and "
				+ "ZK_CONFIG_ENCRYPTION_KEY is not set: its type is not checked");
		assertThat(this.client.checkExists().forPath("/config/orders")).isNotNull();
	}

	private CliRun put(String document, Map<String, String> env) throws Exception {
		Path file = this.dir.resolve("orders.json");
		Files.writeString(file, document);
		Map<String, String> all = new java.util.HashMap<>(env);
		all.put("ZK_CONNECT", zk.connectString());
		return CliRun.runWithEnv(all, "", "config", "put", "orders", file.toString(), "--against",
				this.metadata.toString(), "--author", "test");
	}

}
