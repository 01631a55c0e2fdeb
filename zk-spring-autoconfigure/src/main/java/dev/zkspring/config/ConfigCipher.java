package dev.zkspring.config;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import javax.crypto.SecretKey;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;

/**
 * Encrypts and decrypts the {@code {cipher}} values of configuration documents, so that secrets stay
 * ciphertext in ZooKeeper, its backups and the snapshots on disk; the instances, the publishing tool
 * and validation share it. AES-256-GCM with a random 12-byte IV and a 128-bit tag; a value is
 * {@code {cipher}BASE64} (the default key) or {@code {cipher:KEYID}BASE64} (one of several keys, for
 * rotation), where BASE64 (standard alphabet, padded) encodes {@code version (1 byte) | IV (12 bytes) |
 * ciphertext and tag}. Format 2 authenticates the version byte and the name of the key the value was
 * encrypted for ({@code db.password}) as additional data, so a value copied to another key does not
 * decrypt; format 1 (written before) authenticates the version byte only and is accepted for migration.
 * Keys are 256-bit, base64-encoded ({@code openssl rand -base64 32}); key ids are matched ignoring case.
 * Messages of its exceptions name key ids, property names and what is wrong, never a key or a value.
 */
public final class ConfigCipher {

	/** What starts an encrypted value: {@code {cipher}} or {@code {cipher:KEYID}}. */
	public static final String PREFIX = "{cipher";

	/** The property holding the default key, base64-encoded. */
	public static final String KEY_PROPERTY = "zk.config.encryption.key";

	/** The environment variable holding the default key (the same property, as Boot maps it). */
	public static final String KEY_ENVIRONMENT_VARIABLE = "ZK_CONFIG_ENCRYPTION_KEY";

	/** The prefix of the properties holding keys by id, for {@code {cipher:KEYID}} values. */
	public static final String KEYS_PROPERTY = "zk.config.encryption.keys";

	private static final int KEY_BYTES = 32;

	static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]+");

	private static final SecureRandom random = new SecureRandom();

	private final @Nullable SecretKey defaultKey;

	private final Map<String, SecretKey> keys;

	private ConfigCipher(@Nullable SecretKey defaultKey, Map<String, SecretKey> keys) {
		this.defaultKey = defaultKey;
		this.keys = keys;
	}

	/** A cipher with no key yet: add them with {@link #withDefaultKey} and {@link #withKey}. */
	public static ConfigCipher empty() {
		return new ConfigCipher(null, Map.of());
	}

	/**
	 * A cipher whose default key is the given one.
	 * @param base64Key a 256-bit key, base64-encoded
	 * @throws IllegalArgumentException when it is not base64 or not 32 bytes long (the key is not quoted)
	 */
	public static ConfigCipher ofKey(String base64Key) {
		return empty().withDefaultKey(base64Key);
	}

	/** A new random 256-bit key, base64-encoded, as {@code openssl rand -base64 32} makes one. */
	public static String generateKey() {
		byte[] key = new byte[KEY_BYTES];
		random.nextBytes(key);
		return Base64.getEncoder().encodeToString(key);
	}

	/** Whether a configuration value is encrypted (starts with <code>{cipher}</code> or <code>{cipher:</code>). */
	public static boolean isEncrypted(@Nullable String value) {
		return value != null && (value.startsWith("{cipher}") || value.startsWith("{cipher:"));
	}

	/**
	 * The key id an encrypted value names, as written: {@code k2026} for {@code {cipher:k2026}…}.
	 * @return the id, or {@code null} for {@code {cipher}} values, values that are not encrypted and an
	 * unclosed prefix
	 */
	public static @Nullable String keyIdOf(@Nullable String value) {
		if (value == null || !value.startsWith("{cipher:")) {
			return null;
		}
		int end = value.indexOf('}');
		return (end > 8) ? value.substring(8, end) : null;
	}

	/** This cipher with the given default key (for {@code {cipher}} values). */
	public ConfigCipher withDefaultKey(String base64Key) {
		return new ConfigCipher(secretKey(base64Key, "the default key"), this.keys);
	}

	/** This cipher with the given default key, such as one read from a key store. */
	public ConfigCipher withDefaultKey(SecretKey key) {
		return new ConfigCipher(checked(key.getEncoded(), "the default key"), this.keys);
	}

	/**
	 * This cipher with one more key, for {@code {cipher:KEYID}} values.
	 * @param keyId letters, digits, {@code -} and {@code _}; matched ignoring case
	 * @param base64Key a 256-bit key, base64-encoded
	 */
	public ConfigCipher withKey(String keyId, String base64Key) {
		String id = keyId(keyId);
		Map<String, SecretKey> keys = new TreeMap<>(this.keys);
		keys.put(id, secretKey(base64Key, "the key '" + id + "'"));
		return new ConfigCipher(this.defaultKey, Map.copyOf(keys));
	}

	/** Whether a default key is set. */
	public boolean hasDefaultKey() {
		return this.defaultKey != null;
	}

	/** The ids of the keys set besides the default, in lower case. */
	public Set<String> keyIds() {
		return new TreeSet<>(this.keys.keySet());
	}

	/**
	 * Encrypt a value for the given property with the default key: {@code {cipher}BASE64}, which
	 * decrypts only under that key name.
	 * @param property the key the value is written under in the document, as flattened
	 * ({@code db.password}, {@code servers[0].password})
	 */
	public String encryptFor(String property, String plain) {
		return "{cipher}" + CipherFormat.seal(key(null), plain, property(property));
	}

	/** Encrypt a value for the given property with the key of the given id: {@code {cipher:KEYID}BASE64}. */
	public String encryptFor(String property, String plain, String keyId) {
		String id = keyId(keyId);
		return "{cipher:" + id + "}" + CipherFormat.seal(key(id), plain, property(property));
	}

	/**
	 * Encrypt with the default key in format 1, which is not bound to a property name.
	 * @deprecated a copy of such a value under another key decrypts too; use {@link #encryptFor(String, String)}
	 */
	@Deprecated
	public String encrypt(String plain) {
		return "{cipher}" + CipherFormat.seal(key(null), plain, null);
	}

	/**
	 * Encrypt with the key of the given id in format 1, which is not bound to a property name.
	 * @deprecated a copy of such a value under another key decrypts too; use
	 * {@link #encryptFor(String, String, String)}
	 */
	@Deprecated
	public String encrypt(String plain, String keyId) {
		String id = keyId(keyId);
		return "{cipher:" + id + "}" + CipherFormat.seal(key(id), plain, null);
	}

	/**
	 * Decrypt the {@code {cipher}} or {@code {cipher:KEYID}} value of the given property: a format 2
	 * value must have been encrypted for that property name; a format 1 value decrypts under any name
	 * (see {@link #isUnbound}).
	 * @throws DecryptionException when it is malformed, its key is not set, or it does not authenticate
	 * with that key for that property (wrong key, moved from another property, altered)
	 */
	public String decryptFor(String property, String value) {
		return open(value, property);
	}

	/**
	 * Decrypt a format 1 value, which is not bound to a property name.
	 * @deprecated format 2 values need the property name: use {@link #decryptFor(String, String)}
	 */
	@Deprecated
	public String decrypt(String value) {
		return open(value, null);
	}

	/**
	 * Whether an encrypted value is in format 1, not bound to the name of its property (a copy of it
	 * under another key decrypts too); {@code false} for format 2, other values and malformed ones.
	 */
	public static boolean isUnbound(@Nullable String value) {
		try {
			return isEncrypted(value) && CipherFormat.parse(value).version() == CipherFormat.UNBOUND;
		}
		catch (DecryptionException ex) {
			return false;
		}
	}

	private String open(String value, @Nullable String property) {
		CipherFormat.Sealed sealed = CipherFormat.parse(value);
		if (sealed.version() == CipherFormat.BOUND && property == null) {
			throw new DecryptionException("it is in format " + CipherFormat.BOUND + ", bound to the key it was "
					+ "encrypted for: decrypt it naming that key");
		}
		String id = (sealed.keyId() != null) ? sealed.keyId().toLowerCase(Locale.ROOT) : null;
		return CipherFormat.open(key(id), sealed, property, describe(id));
	}

	private static String property(String property) {
		if (property.isBlank()) {
			throw new IllegalArgumentException("A value is encrypted for the key it is written under "
					+ "(such as db.password), not for a blank one");
		}
		return property;
	}

	private SecretKey key(@Nullable String id) {
		if (id == null) {
			if (this.defaultKey == null) {
				throw new DecryptionException("no default key is set (" + KEY_PROPERTY + ", or the environment variable "
						+ KEY_ENVIRONMENT_VARIABLE + ", or zk.config.encryption.key-store.*)", true);
			}
			return this.defaultKey;
		}
		SecretKey key = this.keys.get(id);
		if (key == null) {
			throw new DecryptionException("its key id '" + id + "' is unknown: set " + KEYS_PROPERTY + "." + id
					+ ((this.keys.isEmpty()) ? "" : " (the key ids set are " + this.keys.keySet() + ")"), true);
		}
		return key;
	}

	private static String describe(@Nullable String id) {
		return (id != null) ? "the key '" + id.toLowerCase(Locale.ROOT) + "' (" + KEYS_PROPERTY + "." + id.toLowerCase(Locale.ROOT) + ")"
				: "the default key (" + KEY_PROPERTY + ")";
	}

	private static String keyId(String keyId) {
		if (!KEY_ID.matcher(keyId).matches()) {
			throw new IllegalArgumentException("A key id is letters, digits, '-' or '_', not '" + keyId + "'");
		}
		return keyId.toLowerCase(Locale.ROOT);
	}

	private static SecretKey secretKey(String base64Key, String which) {
		byte[] bytes;
		try {
			bytes = Base64.getDecoder().decode(base64Key.strip());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(which + " is not valid base64; create one with 'openssl rand -base64 32'");
		}
		return checked(bytes, which);
	}

	private static SecretKey checked(byte @Nullable [] bytes, String which) {
		if (bytes == null || bytes.length != KEY_BYTES) {
			throw new IllegalArgumentException(which + " is " + ((bytes != null) ? bytes.length : 0)
					+ " bytes long, not the 32 bytes (256 bits) of an AES-256 key; create one with 'openssl rand -base64 32'");
		}
		return new SecretKeySpec(bytes, "AES");
	}

	@Override
	public String toString() {
		return "ConfigCipher[" + (hasDefaultKey() ? "a default key" : "no default key") + ", key ids " + this.keys.keySet()
				+ "]";
	}

	/** A value that cannot be decrypted; the message says why, never quoting the value or a key. */
	public static final class DecryptionException extends IllegalArgumentException {

		private final boolean missingKey;

		DecryptionException(String reason) {
			this(reason, false);
		}

		DecryptionException(String reason, boolean missingKey) {
			super(reason);
			this.missingKey = missingKey;
		}

		/** Whether the key it needs is not set, as opposed to a value that is malformed or does not authenticate. */
		public boolean isMissingKey() {
			return this.missingKey;
		}

	}

}
