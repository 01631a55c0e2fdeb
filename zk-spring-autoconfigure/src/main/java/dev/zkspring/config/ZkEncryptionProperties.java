package dev.zkspring.config;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * {@code zk.config.encryption.*}: the keys that decrypt {@code {cipher}} values of configuration
 * documents, so secrets stay ciphertext in ZooKeeper and in snapshots. Read at bootstrap, from the
 * environment, system properties or the packaged files, never from a ZooKeeper document.
 */
public class ZkEncryptionProperties {

	/** Default AES-256 key, base64-encoded (openssl rand -base64 32), for {cipher} values; or ZK_CONFIG_ENCRYPTION_KEY. */
	private @Nullable String key;

	/** Further AES-256 keys, base64-encoded, by key id, for {cipher:KEYID} values (key rotation). */
	private Map<String, String> keys = new LinkedHashMap<>();

	/** Whether values encrypted in format 1, not bound to their key name, are accepted (each with a WARN); false refuses them. */
	private boolean acceptUnboundValues = true;

	private final KeyStore keyStore = new KeyStore();

	public @Nullable String getKey() {
		return this.key;
	}

	public void setKey(@Nullable String key) {
		this.key = key;
	}

	public Map<String, String> getKeys() {
		return this.keys;
	}

	public void setKeys(Map<String, String> keys) {
		this.keys = keys;
	}

	public boolean isAcceptUnboundValues() {
		return this.acceptUnboundValues;
	}

	public void setAcceptUnboundValues(boolean acceptUnboundValues) {
		this.acceptUnboundValues = acceptUnboundValues;
	}

	public KeyStore getKeyStore() {
		return this.keyStore;
	}

	/** A Java key store holding the default key, in place of zk.config.encryption.key. */
	public static class KeyStore {

		/** Key store holding the default AES key (a file path, file: or classpath: URL). */
		private @Nullable String location;

		/** Password of the key store. */
		private @Nullable String password;

		/** Alias of the AES key in the key store. */
		private @Nullable String alias;

		/** Type of the key store, such as PKCS12 or JCEKS. */
		private String type = "PKCS12";

		/** Password of the key, when it differs from the key store's. */
		private @Nullable String keyPassword;

		public @Nullable String getLocation() {
			return this.location;
		}

		public void setLocation(@Nullable String location) {
			this.location = location;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

		public @Nullable String getAlias() {
			return this.alias;
		}

		public void setAlias(@Nullable String alias) {
			this.alias = alias;
		}

		public String getType() {
			return this.type;
		}

		public void setType(String type) {
			this.type = type;
		}

		public @Nullable String getKeyPassword() {
			return this.keyPassword;
		}

		public void setKeyPassword(@Nullable String keyPassword) {
			this.keyPassword = keyPassword;
		}

	}

}
