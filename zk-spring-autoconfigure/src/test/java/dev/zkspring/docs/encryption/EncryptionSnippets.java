package dev.zkspring.docs.encryption;

import dev.zkspring.config.ConfigCipher;

/** The Java snippets of docs/encryption.md, compiled. */
final class EncryptionSnippets {

	private EncryptionSnippets() {
	}

	static String encrypt() {
		// tag::encrypt[]
		String sealed = ConfigCipher.ofKey(System.getenv("ZK_CONFIG_ENCRYPTION_KEY")).encryptFor("db.password", "the-db-password");
		// end::encrypt[]
		return sealed;
	}

	static String encryptWithKeyId(String key) {
		// tag::rotate[]
		String sealed = ConfigCipher.empty().withKey("k2026", key).encryptFor("db.password", "the-db-password", "k2026");
		// end::rotate[]
		return sealed;
	}

}
