package dev.zkspring.config;

import java.time.Duration;
import java.util.Base64;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ConfigTestSupport.EventRecorder;
import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code {cipher}} values against a real server: decrypted on load and on refresh, with rotated keys,
 * and a document that cannot be decrypted refused as a whole, by key and reason, never by value.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigEncryptionIntegrationTests {

	static final Duration WAIT = Duration.ofSeconds(20);

	static final String SECRET = "Plain-S3cret-4711";

	static final String KEY = ConfigCipher.generateKey();

	static final ConfigCipher CIPHER = ConfigCipher.ofKey(KEY);

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config")
		.with((runner) -> runner
				.withBean(EventRecorder.class, EventRecorder::new)
				.withPropertyValues("zk.config.encryption.key=" + KEY));

	@AfterEach
	void cleanUp(CapturedOutput output) throws Exception {
		assertThat(output).doesNotContain(SECRET).doesNotContain(KEY);
	}

	static String document(String greeting, String owner) {
		return "{\"shop\":{\"greeting\":\"" + greeting + "\",\"owner\":{\"name\":\"" + owner + "\"}}}";
	}

	@Test
	void anEncryptedValueReachesTheBeanDecryptedOnLoadAndOnRefresh() throws Exception {
		write(app.writer(), "/config/orders", document(CIPHER.encryptFor("shop.greeting", SECRET), "plain-owner"));
		app.runner().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo(SECRET);
			assertThat(context.getEnvironment().getProperty("shop.owner.name")).isEqualTo("plain-owner");
			write(app.writer(), "/config/orders", document(CIPHER.encryptFor("shop.greeting", SECRET + "-2"), "plain-owner"));
			await().atMost(WAIT).until(() -> (SECRET + "-2").equals(context.getEnvironment().getProperty("shop.greeting")));
			ZkConfigChange change = context.getBean(EventRecorder.class).changes.get(0).getChanges().get(0);
			assertThat(change.key()).isEqualTo("shop.greeting");
			assertThat((String) change.oldValue()).startsWith("{cipher}").doesNotContain(SECRET);
			assertThat((String) change.newValue()).startsWith("{cipher}").doesNotContain(SECRET);
		});
	}

	@Test
	void twoKeyIdsInOneDocumentEachDecryptWithTheirOwnKey() throws Exception {
		String older = ConfigCipher.generateKey();
		String newer = ConfigCipher.generateKey();
		ConfigCipher rotated = ConfigCipher.empty().withKey("k2025", older).withKey("k2026", newer);
		write(app.writer(), "/config/orders",
				document(rotated.encryptFor("shop.greeting", SECRET, "k2025"), rotated.encryptFor("shop.owner.name", "owner-" + SECRET, "K2026")));
		app.runner().withPropertyValues("zk.config.encryption.keys.k2025=" + older, "zk.config.encryption.keys.k2026=" + newer)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ShopProperties shop = context.getBean(ShopProperties.class);
				assertThat(shop.getGreeting()).isEqualTo(SECRET);
				assertThat(shop.getOwner().getName()).isEqualTo("owner-" + SECRET);
			});
	}

	@Test
	void aMissingKeyAtStartupFailsNamingTheZnodeTheKeyAndThePropertyToSet() throws Exception {
		write(app.writer(), "/config/orders", document(CIPHER.encryptFor("shop.greeting", SECRET), "o"));
		ConfigTestSupport.runner(app.zk(), app.snapshots()).run((context) -> {
			assertThat(context).hasFailed();
			ZkStartupException failure = (ZkStartupException) context.getStartupFailure();
			assertThat(failure.getDescription()).contains("/config/orders")
				.contains("'shop.greeting'")
				.contains("no decryption key is configured");
			assertThat(failure.getAction()).contains("zk.config.encryption.key")
				.contains("ZK_CONFIG_ENCRYPTION_KEY");
		});
	}

	@Test
	void aValueOfAnotherKeyFailsTheStartupSayingWhy() throws Exception {
		write(app.writer(), "/config/orders", document(ConfigCipher.ofKey(ConfigCipher.generateKey()).encryptFor("shop.greeting", SECRET), "o"));
		app.runner().run((context) -> {
			assertThat(context).hasFailed();
			ZkStartupException failure = (ZkStartupException) context.getStartupFailure();
			assertThat(failure.getDescription()).contains("/config/orders")
				.contains("the value of key 'shop.greeting' cannot be decrypted")
				.contains("encrypted with another key, or altered");
			assertThat(failure.getAction()).contains("zk.config.encryption.keys.KEYID");
		});
	}

	@Test
	void aKeyThatIsNotAnAesKeyFailsTheStartupNamingItsProperty() throws Exception {
		String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
		app.runner().withPropertyValues("zk.config.encryption.key=" + shortKey).run((context) -> {
			assertThat(context).hasFailed();
			ZkStartupException failure = (ZkStartupException) context.getStartupFailure();
			assertThat(failure.getDescription()).contains("zk.config.encryption.key").contains("16 bytes long")
				.doesNotContain(shortKey);
			assertThat(failure.getAction()).contains("openssl rand -base64 32");
		});
	}

	@Test
	void undecryptableChangesAreRefusedWholeAndTheLastGoodConfigurationStays(CapturedOutput output) throws Exception {
		write(app.writer(), "/config/orders", document(CIPHER.encryptFor("shop.greeting", SECRET), "first"));
		app.runner().run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			String sealed = CIPHER.encryptFor("shop.greeting", SECRET + "-x").substring("{cipher}".length());
			byte[] bytes = Base64.getDecoder().decode(sealed);
			bytes[20] ^= 1;
			String tampered = "{cipher}" + Base64.getEncoder().encodeToString(bytes);
			String[][] refusals = { { tampered, "encrypted with another key, or altered" },
					{ "{cipher}%%not-base64%%", "its ciphertext is not valid base64" },
					{ "{cipher:nokey}" + sealed, "its key id 'nokey' is unknown: set zk.config.encryption.keys.nokey" },
					{ ConfigCipher.ofKey(ConfigCipher.generateKey()).encryptFor("shop.greeting", SECRET), "encrypted with another key" } };
			for (int i = 0; i < refusals.length; i++) {
				int seen = i + 1;
				// the other key changes too: the whole document is refused, not just the bad value
				write(app.writer(), "/config/orders", document(refusals[i][0], "second"));
				await().atMost(WAIT).until(() -> events.rejections.size() == seen);
				ZkConfigRejectedEvent rejected = events.rejections.get(i);
				assertThat(rejected.getZnode()).isEqualTo("/config/orders");
				assertThat(rejected.getKey()).isEqualTo("shop.greeting");
				assertThat(rejected.getReason()).contains(refusals[i][1]);
				assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo(SECRET);
				assertThat(context.getEnvironment().getProperty("shop.owner.name")).isEqualTo("first");
			}
			assertThat(events.changes).isEmpty();
			assertThat(output).contains("Rejected the configuration in znode /config/orders (version 4): the value of "
					+ "key 'shop.greeting' cannot be decrypted");
		});
	}

}
