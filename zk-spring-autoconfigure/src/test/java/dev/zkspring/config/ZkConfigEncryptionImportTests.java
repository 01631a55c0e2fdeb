package dev.zkspring.config;

import java.nio.file.Path;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.CIPHER;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.KEY;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.SECRET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** With {@code spring.config.import=zk:} the key is read at bootstrap as well, from what Boot has at that point. */
class ZkConfigEncryptionImportTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path snapshots;

	private CuratorFramework client;

	@BeforeEach
	void setUp() throws Exception {
		this.client = zk.newClient();
		write(this.client, "/imported/orders", "{\"shop\":{\"greeting\":\"" + CIPHER.encryptFor("shop.greeting", SECRET) + "\"}}");
	}

	@AfterEach
	void cleanUp() throws Exception {
		ConfigTestSupport.deleteAll(this.client, "/imported");
	}

	@Test
	void aKeyOnTheCommandLineDecryptsTheImportedDocument() {
		try (ConfigurableApplicationContext context = ImportTestSupport.runImporting(zk, this.snapshots,
				"--zk.config.encryption.key=" + KEY)) {
			assertThat(context.getBean(ConfigTestSupport.ShopProperties.class).getGreeting()).isEqualTo(SECRET);
		}
	}

	@Test
	void withoutAKeyTheImportFailsNamingThePropertyToSet() {
		assertThatExceptionOfType(ZkStartupException.class)
			.isThrownBy(() -> ImportTestSupport.runImporting(zk, this.snapshots).close())
			.satisfies((failure) -> {
				assertThat(failure.getDescription()).contains("/imported/orders").contains("'shop.greeting'");
				assertThat(failure.getAction()).contains("zk.config.encryption.key");
			});
	}

}
