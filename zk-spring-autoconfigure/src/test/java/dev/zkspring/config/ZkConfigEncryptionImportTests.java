package dev.zkspring.config;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.CIPHER;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.KEY;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.SECRET;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** With {@code spring.config.import=zk:} the key is read at bootstrap as well, from what Boot has at that point. */
class ZkConfigEncryptionImportTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/imported");

	@BeforeEach
	void setUp() throws Exception {
		write(app.writer(), "/imported/orders", "{\"shop\":{\"greeting\":\"" + CIPHER.encryptFor("shop.greeting", SECRET) + "\"}}");
	}

	@Test
	void aKeyOnTheCommandLineDecryptsTheImportedDocument() {
		try (ConfigurableApplicationContext context = ImportTestSupport.runImporting(app.zk(), app.snapshots(),
				"--zk.config.encryption.key=" + KEY)) {
			assertThat(context.getBean(ConfigTestSupport.ShopProperties.class).getGreeting()).isEqualTo(SECRET);
		}
	}

	@Test
	void withoutAKeyTheImportFailsNamingThePropertyToSet() {
		assertThatExceptionOfType(ZkStartupException.class)
			.isThrownBy(() -> ImportTestSupport.runImporting(app.zk(), app.snapshots()).close())
			.satisfies((failure) -> {
				assertThat(failure.getDescription()).contains("/imported/orders").contains("'shop.greeting'");
				assertThat(failure.getAction()).contains("zk.config.encryption.key");
			});
	}

}
