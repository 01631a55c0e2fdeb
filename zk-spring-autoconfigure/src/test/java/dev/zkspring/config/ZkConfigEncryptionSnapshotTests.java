package dev.zkspring.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZooKeeperExtension;

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
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final Duration WAIT = Duration.ofSeconds(20);

	@TempDir
	Path snapshots;

	private CuratorFramework writer;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() throws Exception {
		this.writer = zk.newClient();
		this.runner = ConfigTestSupport.runner(zk, this.snapshots)
			.withPropertyValues("zk.connection-timeout=1s", "zk.session-timeout=10s");
	}

	@AfterEach
	void cleanUp(CapturedOutput output) throws Exception {
		ConfigTestSupport.deleteAll(this.writer, "/config");
		assertThat(output).doesNotContain(SECRET).doesNotContain(KEY);
	}

	@Test
	void theSnapshotFileHoldsOnlyTheCiphertextAfterLoadAndRefresh() throws Exception {
		String first = CIPHER.encryptFor("shop.greeting", SECRET);
		write(this.writer, "/config/orders", document(first, "o"));
		this.runner.withPropertyValues("zk.config.encryption.key=" + KEY).run((context) -> {
			assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo(SECRET);
			Path file = ZkConfigSnapshotTests.snapshotFile(this.snapshots);
			assertThat(Files.readString(file)).contains("\"shop.greeting\":\"" + first + "\"").doesNotContain(SECRET);
			String second = CIPHER.encryptFor("shop.greeting", SECRET + "-2");
			write(this.writer, "/config/orders", document(second, "o"));
			await().atMost(WAIT).until(() -> Files.readString(file).contains(second));
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo(SECRET + "-2");
			assertThat(Files.readString(file)).doesNotContain(SECRET);
		});
	}

	@Test
	void withZooKeeperDownTheSnapshotsCiphertextIsDecryptedAtStartup() throws Exception {
		write(this.writer, "/config/orders", document(CIPHER.encryptFor("shop.greeting", SECRET), "o"));
		ApplicationContextRunner keyed = this.runner.withPropertyValues("zk.config.encryption.key=" + KEY);
		keyed.run((context) -> assertThat(context).hasNotFailed());
		zk.stopServer();
		try {
			keyed.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ZkConfigStatus.class).getSource()).isEqualTo(ZkConfigStatus.Source.SNAPSHOT);
				assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo(SECRET);
			});
			// without the key, the snapshot is as unusable as the document it holds
			this.runner.run((context) -> {
				assertThat(context).hasFailed();
				ZkStartupException failure = (ZkStartupException) context.getStartupFailure();
				assertThat(failure.getDescription()).contains("the configuration snapshot cannot be used")
					.contains("context /config/orders")
					.contains("the value of key 'shop.greeting' is encrypted ({cipher}) but no decryption key is configured")
					.contains("zk.config.encryption.key");
			});
		}
		finally {
			zk.restartServer();
		}
	}

}
