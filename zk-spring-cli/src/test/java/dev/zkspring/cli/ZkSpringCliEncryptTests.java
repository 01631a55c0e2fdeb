package dev.zkspring.cli;

import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.zkspring.config.ConfigCipher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

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
	void encryptWithAKeyIdSealsWithThatIdsKeyAsTheInstancesDecryptIt() {
		String keyForId = ConfigCipher.generateKey();
		CliRun run = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY, "ZK_CONFIG_ENCRYPTION_KEYS_R2026", keyForId),
				"pw", "config", "encrypt", "--property", "db.password", "--key-id", "r2026");
		assertThat(run.status()).as(run.err()).isZero();
		String sealed = run.out().strip();
		assertThat(sealed).startsWith("{cipher:r2026}");
		// an instance during a rotation: the default key and the id's key, each for its own values
		ConfigCipher instance = ConfigCipher.ofKey(KEY).withKey("r2026", keyForId);
		assertThat(instance.decryptFor("db.password", sealed)).isEqualTo("pw");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> ConfigCipher.empty().withKey("r2026", KEY).decryptFor("db.password", sealed));
	}

	@Test
	void encryptWithAKeyIdWhoseKeyIsNotSetIsRefusedNamingTheVariable() {
		CliRun run = CliRun.runWithEnv(Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY), "pw", "config", "encrypt", "--property",
				"db.password", "--key-id", "r-2026");
		assertThat(run.status()).isEqualTo(Exits.USAGE);
		assertThat(run.out()).isEmpty();
		assertThat(run.err()).contains("ZK_CONFIG_ENCRYPTION_KEYS_R_2026 is not set")
			.contains("zk.config.encryption.keys.r-2026")
			.doesNotContain(KEY);
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
