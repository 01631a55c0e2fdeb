package dev.zkspring.config;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Between parsing and the property source: a document's {@code {cipher}} values decrypted with the
 * configured keys, each for the key it is written under (so a value moved from another key is
 * refused). One value that cannot be decrypted refuses the whole document, naming its key and why,
 * never the value; a document without encrypted values passes through unchanged. A value in the
 * unbound format 1 is accepted with one WARN per znode and key, or refused when
 * {@code zk.config.encryption.accept-unbound-values} is false.
 */
final class ValueDecryption {

	private static final String NO_KEY = "no decryption key is configured";

	private static final String UNDECRYPTABLE = "cannot be decrypted";

	/** The property that refuses format 1 values. */
	static final String ACCEPT_UNBOUND_PROPERTY = "zk.config.encryption.accept-unbound-values";

	private static final Log logger = LogFactory.getLog(ZkConfigInitializer.class);

	static final ValueDecryption NONE = new ValueDecryption(null, true);

	private final @Nullable ConfigCipher cipher;

	private final boolean acceptUnbound;

	/** The znodes and keys whose format 1 value was already warned about, so each is told once. */
	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	ValueDecryption(@Nullable ConfigCipher cipher, boolean acceptUnbound) {
		this.cipher = cipher;
		this.acceptUnbound = acceptUnbound;
	}

	/** The source of a document's keys as stored, with its encrypted values decrypted. */
	ZnodePropertySource source(String znode, int version, Map<String, String> stored) throws DocumentRejectedException {
		return source(znode, version, stored, null);
	}

	/** The same for a canary's candidate ({@code null} for a base document). */
	ZnodePropertySource source(String znode, int version, Map<String, String> stored,
			ZnodePropertySource.@Nullable Candidate candidate) throws DocumentRejectedException {
		return new ZnodePropertySource(znode, version, decrypt(znode, stored), stored, candidate);
	}

	/** The keys with their values decrypted; the same map when none is encrypted. */
	private Map<String, String> decrypt(String znode, Map<String, String> stored) throws DocumentRejectedException {
		Map<String, String> plain = null;
		for (Map.Entry<String, String> entry : stored.entrySet()) {
			if (ConfigCipher.isEncrypted(entry.getValue())) {
				if (plain == null) {
					plain = new LinkedHashMap<>(stored);
				}
				plain.put(entry.getKey(), decrypt(znode, entry.getKey(), entry.getValue()));
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
		if (reason.contains(ACCEPT_UNBOUND_PROPERTY)) {
			return "Encrypt the value again for its key (zk-spring-cli config encrypt --property KEY) and publish it, "
					+ "or set " + ACCEPT_UNBOUND_PROPERTY + "=true while values are being re-encrypted.";
		}
		if (reason.contains(UNDECRYPTABLE)) {
			return "Configure the key the value was encrypted with (" + ConfigCipher.KEY_PROPERTY + ", or "
					+ ConfigCipher.KEYS_PROPERTY + ".KEYID for a {cipher:KEYID} value), or write the value again "
					+ "encrypted with a configured key for the key it is written under (a value moved from another "
					+ "key does not decrypt). Or set zk.config.fail-fast=false to start without that context.";
		}
		return null;
	}

	private String decrypt(String znode, String key, String value) throws DocumentRejectedException {
		if (this.cipher == null) {
			throw new DocumentRejectedException("the value of key '" + key + "' is encrypted ({cipher}) but " + NO_KEY
					+ ": set " + ConfigCipher.KEY_PROPERTY + " (the environment variable "
					+ ConfigCipher.KEY_ENVIRONMENT_VARIABLE + ") or zk.config.encryption.key-store.* where the "
					+ "application starts (a key cannot come from a ZooKeeper document)", key);
		}
		boolean unbound = ConfigCipher.isUnbound(value);
		if (unbound && !this.acceptUnbound) {
			throw new DocumentRejectedException("the value of key '" + key + "' is encrypted in format 1, which is not "
					+ "bound to its key, and " + ACCEPT_UNBOUND_PROPERTY + " is false: encrypt it again for '" + key
					+ "' (zk-spring-cli config encrypt --property " + key + ")", key);
		}
		String plain;
		try {
			plain = this.cipher.decryptFor(key, value);
		}
		catch (ConfigCipher.DecryptionException ex) {
			throw new DocumentRejectedException("the value of key '" + key + "' " + UNDECRYPTABLE + ": " + ex.getMessage(),
					key);
		}
		if (unbound && this.warned.add(znode + "\n" + key)) {
			logger.warn("The value of key '" + key + "' in znode " + znode + " is encrypted in format 1, which is not "
					+ "bound to its key (a copy of it under another key would decrypt too): encrypt it again with "
					+ "'zk-spring-cli config encrypt --property " + key + "' and publish it, then set "
					+ ACCEPT_UNBOUND_PROPERTY + "=false to refuse such values");
		}
		return plain;
	}

}
