package dev.zkspring.config;

import java.util.Base64;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The {@code {cipher}} format: AES-256-GCM, version byte | IV | ciphertext and tag, and its refusals. */
class ConfigCipherTests {

	private static final String SECRET = "pa55-Wörd";

	private final String key = ConfigCipher.generateKey();

	private final ConfigCipher cipher = ConfigCipher.ofKey(this.key);

	@Test
	void aValueEncryptedWithTheDefaultKeyDecryptsToItself() {
		String sealed = this.cipher.encryptFor("db.password", SECRET);
		assertThat(sealed).startsWith("{cipher}").doesNotContain(SECRET);
		assertThat(ConfigCipher.isEncrypted(sealed)).isTrue();
		assertThat(ConfigCipher.isUnbound(sealed)).isFalse();
		assertThat(this.cipher.decryptFor("db.password", sealed)).isEqualTo(SECRET);
	}

	@Test
	void theLayoutIsVersionIvCiphertextAndTag() {
		byte[] sealed = Base64.getDecoder().decode(this.cipher.encryptFor("db.password", SECRET).substring("{cipher}".length()));
		assertThat(sealed[0]).isEqualTo((byte) 2);
		assertThat(sealed).hasSize(1 + 12 + SECRET.getBytes(java.nio.charset.StandardCharsets.UTF_8).length + 16);
	}

	@Test
	void aValueMovedToAnotherKeyIsRefusedNamingThatKey() {
		String sealed = this.cipher.encryptFor("db.password", SECRET);
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class)
			.isThrownBy(() -> this.cipher.decryptFor("info.owner", sealed))
			.withMessageContaining("does not authenticate as the value of 'info.owner' with the default key")
			.withMessageContaining("encrypted for another key and moved here");
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class)
			.isThrownBy(() -> this.cipher.decryptFor("db.password2", sealed));
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class).isThrownBy(() -> this.cipher.decrypt(sealed))
			.withMessageContaining("bound to the key it was encrypted for");
	}

	@Test
	@SuppressWarnings("deprecation")
	void aValueOfFormatOneDecryptsUnderAnyKeyAndIsToldApart() {
		String unbound = this.cipher.encrypt(SECRET);
		assertThat(Base64.getDecoder().decode(unbound.substring(8))[0]).isEqualTo((byte) 1);
		assertThat(ConfigCipher.isUnbound(unbound)).isTrue();
		assertThat(this.cipher.decryptFor("db.password", unbound)).isEqualTo(SECRET);
		assertThat(this.cipher.decryptFor("info.owner", unbound)).isEqualTo(SECRET);
		assertThat(ConfigCipher.isUnbound("{cipher}not*base64")).isFalse();
		assertThat(ConfigCipher.isUnbound("plain")).isFalse();
	}

	@Test
	void everyEncryptionDrawsANewIv() {
		assertThat(this.cipher.encryptFor("a", SECRET)).isNotEqualTo(this.cipher.encryptFor("a", SECRET));
	}

	@Test
	@SuppressWarnings("deprecation")
	void aKeyIdPicksItsKeyIgnoringCase() {
		ConfigCipher rotated = this.cipher.withKey("K2026", ConfigCipher.generateKey());
		String sealed = rotated.encrypt(SECRET, "K2026");
		assertThat(sealed).startsWith("{cipher:k2026}");
		assertThat(rotated.decrypt(sealed)).isEqualTo(SECRET);
		assertThat(rotated.decrypt(sealed.replace("k2026", "K2026"))).isEqualTo(SECRET);
		assertThat(rotated.keyIds()).containsExactly("k2026");
	}

	@Test
	@SuppressWarnings("deprecation")
	void anAlteredValueIsRefused() {
		String sealed = this.cipher.encrypt(SECRET);
		byte[] bytes = Base64.getDecoder().decode(sealed.substring(8));
		bytes[bytes.length - 1] ^= 1;
		String altered = "{cipher}" + Base64.getEncoder().encodeToString(bytes);
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class).isThrownBy(() -> this.cipher.decrypt(altered))
			.withMessageContaining("does not authenticate with the default key (zk.config.encryption.key)")
			.withMessageNotContaining(altered.substring(8));
	}

	@Test
	@SuppressWarnings("deprecation")
	void aValueOfAnotherKeyIsRefused() {
		String sealed = ConfigCipher.ofKey(ConfigCipher.generateKey()).encrypt(SECRET);
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class).isThrownBy(() -> this.cipher.decrypt(sealed))
			.withMessageContaining("encrypted with another key, or altered");
	}

	@Test
	@SuppressWarnings("deprecation")
	void malformedValuesAreRefusedSayingWhy() {
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class).isThrownBy(() -> this.cipher.decrypt("{cipher}not*base64"))
			.withMessage("its ciphertext is not valid base64");
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class).isThrownBy(() -> this.cipher.decrypt("{cipher}AQID"))
			.withMessageContaining("too short");
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class).isThrownBy(() -> this.cipher.decrypt("{cipher:x"))
			.withMessageContaining("not closed");
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class)
			.isThrownBy(() -> this.cipher.decrypt("{cipher:nope}" + this.cipher.encrypt(SECRET).substring(8)))
			.withMessageContaining("key id 'nope' is unknown: set zk.config.encryption.keys.nope")
			.satisfies((ex) -> assertThat(ex.isMissingKey()).isTrue());
		assertThatExceptionOfType(ConfigCipher.DecryptionException.class)
			.isThrownBy(() -> ConfigCipher.empty().decrypt(this.cipher.encrypt(SECRET)))
			.withMessageContaining("no default key is set (zk.config.encryption.key");
	}

	@Test
	void aKeyThatIsNot256BitsIsRefusedWithoutQuotingIt() {
		String shortKey = Base64.getEncoder().encodeToString(new byte[16]);
		assertThatIllegalArgumentException().isThrownBy(() -> ConfigCipher.ofKey(shortKey))
			.withMessageContaining("16 bytes long, not the 32 bytes")
			.withMessageContaining("openssl rand -base64 32")
			.withMessageNotContaining(shortKey);
		assertThatIllegalArgumentException().isThrownBy(() -> ConfigCipher.ofKey("secret key!"))
			.withMessageContaining("not valid base64")
			.withMessageNotContaining("secret key!");
	}

	@Test
	void toStringNamesKeyIdsOnly() {
		assertThat(this.cipher.withKey("old", this.key).toString()).doesNotContain(this.key).contains("[old]");
	}

}
