package dev.zkspring.cli;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.zkspring.config.ConfigCipher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** {@code config encrypt}: a value from stdin, sealed with the key the instances use (no ZooKeeper needed). */
class ZkSpringCliEncryptTests {

	private static final String KEY = ConfigCipher.generateKey();

	@Test
	void encryptReadsTheValueFromStdinAndPrintsWhatTheInstancesDecrypt() {
		CliRun run = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY), "s3cret-pw\n", "config", "encrypt",
				"--property", "db.password");
		assertThat(run.status()).as(run.err()).isZero();
		String sealed = run.out().strip();
		assertThat(sealed).startsWith("{cipher}").doesNotContain("s3cret-pw");
		assertThat(ConfigCipher.ofKey(KEY).decryptFor("db.password", sealed)).isEqualTo("s3cret-pw");
		assertThat(ConfigCipher.isUnbound(sealed)).isFalse();
		assertThat(run.err()).doesNotContain("s3cret-pw");
	}

	@Test
	void encryptWithAKeyIdWritesThatId() {
		CliRun run = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY), "pw", "config", "encrypt",
				"--property", "db.password", "--key-id", "r2026");
		assertThat(run.status()).as(run.err()).isZero();
		assertThat(run.out().strip()).startsWith("{cipher:r2026}");
		assertThat(ConfigCipher.empty().withKey("r2026", KEY).decryptFor("db.password", run.out().strip())).isEqualTo("pw");
	}

	@Test
	void encryptBindsTheValueToItsKeySoAnotherKeyCannotDecryptIt() {
		CliRun run = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY), "pw", "config", "encrypt",
				"--property", "db.password");
		assertThat(run.status()).as(run.err()).isZero();
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class)
			.isThrownBy(() -> ConfigCipher.ofKey(KEY).decryptFor("info.owner", run.out().strip()))
			.withMessageContaining("'info.owner'");
		CliRun unnamed = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY), "pw", "config", "encrypt");
		assertThat(unnamed.status()).isEqualTo(Exits.USAGE);
		assertThat(unnamed.err()).contains("--property");
	}

	@Test
	void encryptWithoutAKeyOrValueIsAUsageErrorNamingWhatToSet() {
		CliRun noKey = CliRun.runWithEnv(Map.of(), "pw", "config", "encrypt", "--property", "a");
		assertThat(noKey.status()).isEqualTo(Exits.USAGE);
		assertThat(noKey.err()).contains("ZK_CONFIG_ENCRYPTION_KEY is not set");
		CliRun badKey = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", "c2hvcnQ="), "pw", "config", "encrypt",
				"--property", "a");
		assertThat(badKey.status()).isEqualTo(Exits.USAGE);
		assertThat(badKey.err()).doesNotContain("c2hvcnQ=");
		CliRun noValue = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY), "", "config", "encrypt",
				"--property", "a");
		assertThat(noValue.status()).isEqualTo(Exits.USAGE);
		assertThat(noValue.err()).contains("stdin held no value");
	}

}
