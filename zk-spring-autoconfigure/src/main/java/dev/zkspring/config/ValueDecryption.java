package dev.zkspring.config;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Between parsing and the property source: a document's {@code {cipher}} values decrypted with the
 * configured keys. One value that cannot be decrypted refuses the whole document, naming its key and
 * why, never the value; a document without encrypted values passes through unchanged.
 */
final class ValueDecryption {

	private static final String NO_KEY = "no decryption key is configured";

	private static final String UNDECRYPTABLE = "cannot be decrypted";

	static final ValueDecryption NONE = new ValueDecryption(null);

	private final @Nullable ConfigCipher cipher;

	ValueDecryption(@Nullable ConfigCipher cipher) {
		this.cipher = cipher;
	}

	/** The source of a document's keys as stored, with its encrypted values decrypted. */
	ZnodePropertySource source(String znode, int version, Map<String, String> stored) throws DocumentRejectedException {
		return source(znode, version, stored, null);
	}

	/** The same for a canary's candidate ({@code null} for a base document). */
	ZnodePropertySource source(String znode, int version, Map<String, String> stored,
			ZnodePropertySource.@Nullable Candidate candidate) throws DocumentRejectedException {
		return new ZnodePropertySource(znode, version, decrypt(stored), stored, candidate);
	}

	/** The keys with their values decrypted; the same map when none is encrypted. */
	Map<String, String> decrypt(Map<String, String> stored) throws DocumentRejectedException {
		Map<String, String> plain = null;
		for (Map.Entry<String, String> entry : stored.entrySet()) {
			if (ConfigCipher.isEncrypted(entry.getValue())) {
				if (plain == null) {
					plain = new LinkedHashMap<>(stored);
				}
				plain.put(entry.getKey(), decrypt(entry.getKey(), entry.getValue()));
			}
		}
		return (plain != null) ? plain : stored;
	}

	/** What to do about a refusal of this class, for a startup failure; {@code null} for other refusals. */
	static @Nullable String action(String reason) {
		if (reason.contains(NO_KEY)) {
			return "Set " + ConfigCipher.KEY_PROPERTY + " (the environment variable " + ConfigCipher.KEY_ENVIRONMENT_VARIABLE
					+ ") to the base64 key the value was encrypted with, or zk.config.encryption.key-store.location, "
					+ ".password and .alias; in the environment, system properties or application.yml, not in ZooKeeper.";
		}
		if (reason.contains(UNDECRYPTABLE)) {
			return "Configure the key the value was encrypted with (" + ConfigCipher.KEY_PROPERTY + ", or "
					+ ConfigCipher.KEYS_PROPERTY + ".KEYID for a {cipher:KEYID} value), or write the value again "
					+ "encrypted with a configured key. Or set zk.config.fail-fast=false to start without that context.";
		}
		return null;
	}

	private String decrypt(String key, String value) throws DocumentRejectedException {
		if (this.cipher == null) {
			throw new DocumentRejectedException("the value of key '" + key + "' is encrypted ({cipher}) but " + NO_KEY
					+ ": set " + ConfigCipher.KEY_PROPERTY + " (the environment variable "
					+ ConfigCipher.KEY_ENVIRONMENT_VARIABLE + ") or zk.config.encryption.key-store.* where the "
					+ "application starts (a key cannot come from a ZooKeeper document)", key);
		}
		try {
			return this.cipher.decrypt(value);
		}
		catch (ConfigCipher.DecryptionException ex) {
			throw new DocumentRejectedException("the value of key '" + key + "' " + UNDECRYPTABLE + ": " + ex.getMessage(),
					key);
		}
	}

}
