package dev.zkspring.config;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;

import javax.crypto.spec.SecretKeySpec;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.CIPHER;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.KEY;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.SECRET;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.document;
import static org.assertj.core.api.Assertions.assertThat;

/** The default key from a Java key store ({@code zk.config.encryption.key-store.*}) in place of a property. */
class ZkConfigEncryptionKeyStoreTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final String PASSWORD = "store-pw";

	@TempDir
	Path directory;

	private CuratorFramework writer;

	private ApplicationContextRunner runner;

	private Path store;

	@BeforeEach
	void setUp() throws Exception {
		this.writer = zk.newClient();
		this.store = this.directory.resolve("config-keys.p12");
		KeyStore keys = KeyStore.getInstance("PKCS12");
		keys.load(null, null);
		keys.setEntry("zk-config", new KeyStore.SecretKeyEntry(new SecretKeySpec(Base64.getDecoder().decode(KEY), "AES")),
				new KeyStore.PasswordProtection(PASSWORD.toCharArray()));
		try (OutputStream out = Files.newOutputStream(this.store)) {
			keys.store(out, PASSWORD.toCharArray());
		}
		this.runner = ConfigTestSupport.runner(zk, this.directory.resolve("snapshots"))
			.withPropertyValues("zk.config.encryption.key-store.location=" + this.store,
					"zk.config.encryption.key-store.password=" + PASSWORD);
		write(this.writer, "/config/orders", document(CIPHER.encryptFor("shop.greeting", SECRET), "o"));
	}

	@AfterEach
	void cleanUp() throws Exception {
		ConfigTestSupport.deleteAll(this.writer, "/config");
	}

	@Test
	void theKeyUnderTheAliasDecryptsTheDocument() {
		this.runner.withPropertyValues("zk.config.encryption.key-store.alias=zk-config")
			.run((context) -> assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo(SECRET));
	}

	@Test
	void anAliasWithoutAKeyFailsTheStartupNamingTheAliasProperty() {
		this.runner.withPropertyValues("zk.config.encryption.key-store.alias=other").run((context) -> {
			ZkStartupException failure = (ZkStartupException) context.getStartupFailure();
			assertThat(failure.getDescription()).contains(this.store.toString())
				.contains("no key under the alias 'other' (zk.config.encryption.key-store.alias)");
		});
	}

	@Test
	void aWrongPasswordFailsTheStartupNamingTheStoreWithoutThePassword() {
		this.runner.withPropertyValues("zk.config.encryption.key-store.alias=zk-config",
				"zk.config.encryption.key-store.password=wrong-pw").run((context) -> {
			ZkStartupException failure = (ZkStartupException) context.getStartupFailure();
			assertThat(failure.getDescription()).contains("The key store " + this.store)
				.contains("cannot be read")
				.doesNotContain("wrong-pw");
			assertThat(failure.getAction()).contains("zk.config.encryption.key-store.location, .type and .password");
		});
	}

	@Test
	void aKeyStoreAndAKeyPropertyTogetherAreRefused() {
		this.runner.withPropertyValues("zk.config.encryption.key-store.alias=zk-config", "zk.config.encryption.key=" + KEY)
			.run((context) -> assertThat(((ZkStartupException) context.getStartupFailure()).getDescription())
				.contains("Both zk.config.encryption.key and zk.config.encryption.key-store.location are set"));
	}

}
