package dev.zkspring.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.CIPHER;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.KEY;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.SECRET;
import static dev.zkspring.config.ZkConfigEncryptionIntegrationTests.document;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The snapshot on disk holds an encrypted value as ZooKeeper does (ciphertext), and decrypts it again at startup. */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigEncryptionSnapshotTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config")
		.with((runner) -> runner.withPropertyValues("zk.connection-timeout=1s", "zk.session-timeout=10s"));

	private static final Duration WAIT = Duration.ofSeconds(20);

	@AfterEach
	void cleanUp(CapturedOutput output) throws Exception {
		assertThat(output).doesNotContain(SECRET).doesNotContain(KEY);
	}

	@Test
	void theSnapshotFileHoldsOnlyTheCiphertextAfterLoadAndRefresh() throws Exception {
		String first = CIPHER.encryptFor("shop.greeting", SECRET);
		write(app.writer(), "/config/orders", document(first, "o"));
		app.runner().withPropertyValues("zk.config.encryption.key=" + KEY).run((context) -> {
			assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo(SECRET);
			Path file = ZkConfigSnapshotTests.snapshotFile(app.snapshots());
			assertThat(Files.readString(file)).contains("\"shop.greeting\":\"" + first + "\"").doesNotContain(SECRET);
			String second = CIPHER.encryptFor("shop.greeting", SECRET + "-2");
			write(app.writer(), "/config/orders", document(second, "o"));
			await().atMost(WAIT).until(() -> Files.readString(file).contains(second));
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo(SECRET + "-2");
			assertThat(Files.readString(file)).doesNotContain(SECRET);
		});
	}

	@Test
	void withZooKeeperDownTheSnapshotsCiphertextIsDecryptedAtStartup() throws Exception {
		write(app.writer(), "/config/orders", document(CIPHER.encryptFor("shop.greeting", SECRET), "o"));
		ApplicationContextRunner keyed = app.runner().withPropertyValues("zk.config.encryption.key=" + KEY);
		keyed.run((context) -> assertThat(context).hasNotFailed());
		app.zk().stopServer();
		try {
			keyed.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ZkConfigStatus.class).getSource()).isEqualTo(ZkConfigStatus.Source.SNAPSHOT);
				assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo(SECRET);
			});
			// without the key, the snapshot is as unusable as the document it holds
			app.runner().run((context) -> {
				assertThat(context).hasFailed();
				ZkStartupException failure = (ZkStartupException) context.getStartupFailure();
				assertThat(failure.getDescription()).contains("the configuration snapshot cannot be used")
					.contains("context /config/orders")
					.contains("the value of key 'shop.greeting' is encrypted ({cipher}) but no decryption key is configured")
					.contains("zk.config.encryption.key");
			});
		}
		finally {
			app.zk().restartServer();
		}
	}

}
