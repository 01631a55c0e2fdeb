package dev.zkspring.config;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;

/**
 * Encrypts and decrypts the {@code {cipher}} values of configuration documents, so that secrets stay
 * ciphertext in ZooKeeper, its backups and the snapshots on disk; the instances, the publishing tool
 * and validation share it. AES-256-GCM with a random 12-byte IV and a 128-bit tag; a value is
 * {@code {cipher}BASE64} (the default key) or {@code {cipher:KEYID}BASE64} (one of several keys, for
 * rotation), where BASE64 (standard alphabet, padded) encodes {@code version (1 byte, 1) | IV (12 bytes) |
 * ciphertext and tag}, and the version byte is authenticated as additional data. Keys are 256-bit,
 * base64-encoded ({@code openssl rand -base64 32}); key ids are matched ignoring case. Messages of its
 * exceptions name key ids and what is wrong, never a key or a value.
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

	private static final byte VERSION = 1;

	private static final int IV_BYTES = 12;

	private static final int TAG_BITS = 128;

	private static final int KEY_BYTES = 32;

	private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]+");

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

	/** Encrypt with the default key: {@code {cipher}BASE64}. */
	public String encrypt(String plain) {
		return "{cipher}" + seal(key(null), plain);
	}

	/** Encrypt with the key of the given id: {@code {cipher:KEYID}BASE64}. */
	public String encrypt(String plain, String keyId) {
		String id = keyId(keyId);
		return "{cipher:" + id + "}" + seal(key(id), plain);
	}

	/**
	 * Decrypt a {@code {cipher}} or {@code {cipher:KEYID}} value.
	 * @throws DecryptionException when it is malformed, its key is not set, or it does not authenticate
	 * with that key (wrong key, altered)
	 */
	public String decrypt(String value) {
		if (!isEncrypted(value)) {
			throw new DecryptionException("it does not start with {cipher} or {cipher:KEYID}");
		}
		int end = value.indexOf('}');
		if (end < 0) {
			throw new DecryptionException("its '{cipher:' prefix is not closed by '}'");
		}
		String id = (value.charAt(7) == ':') ? value.substring(8, end) : null;
		if (id != null && !KEY_ID.matcher(id).matches()) {
			throw new DecryptionException("its key id is not letters, digits, '-' or '_'");
		}
		byte[] sealed;
		try {
			sealed = Base64.getDecoder().decode(value.substring(end + 1).strip());
		}
		catch (IllegalArgumentException ex) {
			throw new DecryptionException("its ciphertext is not valid base64");
		}
		if (sealed.length < 1 + IV_BYTES + TAG_BITS / 8) {
			throw new DecryptionException("its ciphertext is too short (" + sealed.length + " bytes) to be one");
		}
		if (sealed[0] != VERSION) {
			throw new DecryptionException("its ciphertext has format version " + sealed[0] + ", not " + VERSION);
		}
		SecretKey key = key((id != null) ? id.toLowerCase(Locale.ROOT) : null);
		try {
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 1, IV_BYTES));
			cipher.updateAAD(sealed, 0, 1);
			byte[] plain = cipher.doFinal(sealed, 1 + IV_BYTES, sealed.length - 1 - IV_BYTES);
			return new String(plain, StandardCharsets.UTF_8);
		}
		catch (AEADBadTagException ex) {
			throw new DecryptionException("it does not authenticate with " + describe(id)
					+ ": it was encrypted with another key, or altered");
		}
		catch (GeneralSecurityException ex) {
			throw new DecryptionException("AES-GCM is not available (" + ex.getClass().getName() + ")");
		}
	}

	private static String seal(SecretKey key, String plain) {
		byte[] iv = new byte[IV_BYTES];
		random.nextBytes(iv);
		try {
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
			cipher.updateAAD(new byte[] { VERSION });
			byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
			ByteBuffer out = ByteBuffer.allocate(1 + IV_BYTES + sealed.length).put(VERSION).put(iv).put(sealed);
			return Base64.getEncoder().encodeToString(out.array());
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES-GCM is not available (" + ex.getClass().getName() + ")");
		}
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
