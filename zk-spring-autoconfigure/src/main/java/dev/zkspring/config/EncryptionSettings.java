package dev.zkspring.config;

import java.io.IOException;
import java.io.InputStream;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Map;
import java.util.TreeMap;

import javax.crypto.SecretKey;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ResourceUtils;

import dev.zkspring.client.ZkStartupException;

/**
 * {@code zk.config.encryption.*} as bound at bootstrap (environment, system properties, the packaged
 * files: never a ZooKeeper document, which is what they decrypt). The keys are read into a
 * {@link ConfigCipher} when the config center loads, so a bad key fails the startup naming its
 * property. {@link #toString()} shows which properties are set, never a key or a password.
 * @param key {@code zk.config.encryption.key}
 * @param keys {@code zk.config.encryption.keys.*}, by key id
 * @param keyStoreLocation {@code zk.config.encryption.key-store.location}
 * @param keyStorePassword {@code zk.config.encryption.key-store.password}
 * @param keyStoreAlias {@code zk.config.encryption.key-store.alias}
 * @param keyStoreType {@code zk.config.encryption.key-store.type}
 * @param keyPassword {@code zk.config.encryption.key-store.key-password}
 * @param acceptUnboundValues {@code zk.config.encryption.accept-unbound-values}
 */
record EncryptionSettings(@Nullable String key, Map<String, String> keys, @Nullable String keyStoreLocation,
		@Nullable String keyStorePassword, @Nullable String keyStoreAlias, String keyStoreType,
		@Nullable String keyPassword, boolean acceptUnboundValues) {

	private static final String PREFIX = ZkConfigProperties.PREFIX + ".encryption.";

	/** The values of the bound {@code zk.config.encryption.*} properties, key ids in order. */
	static EncryptionSettings of(ZkEncryptionProperties encryption) {
		ZkEncryptionProperties.KeyStore store = encryption.getKeyStore();
		return new EncryptionSettings(encryption.getKey(), new TreeMap<>(encryption.getKeys()), store.getLocation(),
				store.getPassword(), store.getAlias(), store.getType(), store.getKeyPassword(),
				encryption.isAcceptUnboundValues());
	}

	/**
	 * The cipher of the configured keys.
	 * @return {@code null} when no key is configured
	 * @throws ZkStartupException when a key cannot be used, naming its property
	 */
	@Nullable ConfigCipher cipher() {
		if (this.key == null && this.keyStoreLocation == null && this.keys.isEmpty()) {
			return null;
		}
		if (this.key != null && this.keyStoreLocation != null) {
			throw new ZkStartupException("Both " + ConfigCipher.KEY_PROPERTY + " and " + PREFIX
					+ "key-store.location are set; each gives the default key.",
					"Set only one of them (the other may be in an environment variable such as "
							+ ConfigCipher.KEY_ENVIRONMENT_VARIABLE + ").");
		}
		ConfigCipher cipher = ConfigCipher.empty();
		try {
			if (this.key != null) {
				cipher = cipher.withDefaultKey(this.key);
			}
		}
		catch (IllegalArgumentException ex) {
			throw badKey(ConfigCipher.KEY_PROPERTY + " (the environment variable " + ConfigCipher.KEY_ENVIRONMENT_VARIABLE
					+ ")", ex);
		}
		for (Map.Entry<String, String> entry : this.keys.entrySet()) {
			try {
				cipher = cipher.withKey(entry.getKey(), entry.getValue());
			}
			catch (IllegalArgumentException ex) {
				throw badKey(ConfigCipher.KEYS_PROPERTY + "." + entry.getKey(), ex);
			}
		}
		if (this.keyStoreLocation != null) {
			try {
				cipher = cipher.withDefaultKey(keyFromStore(this.keyStoreLocation));
			}
			catch (IllegalArgumentException ex) {
				throw badKey(PREFIX + "key-store.alias", ex);
			}
		}
		return cipher;
	}

	private SecretKey keyFromStore(String location) {
		if (this.keyStoreAlias == null) {
			throw new ZkStartupException(PREFIX + "key-store.location is set but " + PREFIX + "key-store.alias is not.",
					"Set " + PREFIX + "key-store.alias to the alias of the AES key in " + location + ".");
		}
		char[] password = (this.keyStorePassword != null) ? this.keyStorePassword.toCharArray() : null;
		Key key;
		try (InputStream in = ResourceUtils.getURL(location).openStream()) {
			KeyStore store = KeyStore.getInstance(this.keyStoreType);
			store.load(in, password);
			key = store.getKey(this.keyStoreAlias, (this.keyPassword != null) ? this.keyPassword.toCharArray() : password);
		}
		catch (IOException | GeneralSecurityException ex) {
			// the messages of key stores name files and algorithms, not passwords or keys
			throw new ZkStartupException("The key store " + location + " (" + PREFIX + "key-store.location, type "
					+ this.keyStoreType + ") cannot be read: " + ex.getClass().getSimpleName() + ": " + ex.getMessage(),
					"Check " + PREFIX + "key-store.location, .type and .password, and .key-password if the key has "
							+ "its own password.");
		}
		if (!(key instanceof SecretKey secret)) {
			throw new ZkStartupException("The key store " + location + " has " + ((key == null) ? "no key" : "no secret key")
					+ " under the alias '" + this.keyStoreAlias + "' (" + PREFIX + "key-store.alias).",
					"Store a 256-bit AES key under that alias (keytool -genseckey -keyalg AES -keysize 256 -alias "
							+ this.keyStoreAlias + " -storetype PKCS12 -keystore FILE), or set the alias it has.");
		}
		return secret;
	}

	private static ZkStartupException badKey(String property, IllegalArgumentException ex) {
		return new ZkStartupException("The decryption key in " + property + " cannot be used: " + ex.getMessage() + ".",
				"Set " + property + " to a 256-bit AES key, base64-encoded (openssl rand -base64 32).");
	}

	@Override
	public String toString() {
		return "EncryptionSettings[key " + ((this.key != null) ? "set" : "unset") + ", key ids " + this.keys.keySet()
				+ ", key store " + this.keyStoreLocation + " (" + this.keyStoreType + ") alias " + this.keyStoreAlias
				+ ", unbound values " + (this.acceptUnboundValues ? "accepted" : "refused") + "]";
	}

}
