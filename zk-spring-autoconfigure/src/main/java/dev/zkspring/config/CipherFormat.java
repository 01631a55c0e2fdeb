package dev.zkspring.config;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;

import org.jspecify.annotations.Nullable;

import dev.zkspring.config.ConfigCipher.DecryptionException;

/**
 * The bytes of a {@code {cipher}} value (see {@link ConfigCipher}): {@code version | IV | ciphertext and
 * tag}, AES-256-GCM, with the version byte and, in format 2, the property name as additional data.
 */
final class CipherFormat {

	/** Format 1: not bound to a property name (values written before format 2). */
	static final byte UNBOUND = 1;

	/** Format 2: the property name is authenticated with the value. */
	static final byte BOUND = 2;

	private static final int IV_BYTES = 12;

	private static final int TAG_BITS = 128;

	private static final SecureRandom random = new SecureRandom();

	private CipherFormat() {
	}

	/** The base64 of a value encrypted with the key, in format 2 for a property, in format 1 without one. */
	static String seal(SecretKey key, String plain, @Nullable String property) {
		byte version = (property != null) ? BOUND : UNBOUND;
		byte[] iv = new byte[IV_BYTES];
		random.nextBytes(iv);
		try {
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
			cipher.updateAAD(additionalData(version, property));
			byte[] sealed = cipher.doFinal(plain.getBytes(StandardCharsets.UTF_8));
			ByteBuffer out = ByteBuffer.allocate(1 + IV_BYTES + sealed.length).put(version).put(iv).put(sealed);
			return Base64.getEncoder().encodeToString(out.array());
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES-GCM is not available (" + ex.getClass().getName() + ")");
		}
	}

	/**
	 * A value's key id and bytes.
	 * @throws DecryptionException when it is not a well-formed {@code {cipher}} value of a known format
	 */
	static Sealed parse(String value) {
		if (!ConfigCipher.isEncrypted(value)) {
			throw new DecryptionException("it does not start with {cipher} or {cipher:KEYID}");
		}
		int end = value.indexOf('}');
		if (end < 0) {
			throw new DecryptionException("its '{cipher:' prefix is not closed by '}'");
		}
		String id = (value.charAt(7) == ':') ? value.substring(8, end) : null;
		if (id != null && !ConfigCipher.KEY_ID.matcher(id).matches()) {
			throw new DecryptionException("its key id is not letters, digits, '-' or '_'");
		}
		byte[] bytes;
		try {
			bytes = Base64.getDecoder().decode(value.substring(end + 1).strip());
		}
		catch (IllegalArgumentException ex) {
			throw new DecryptionException("its ciphertext is not valid base64");
		}
		if (bytes.length < 1 + IV_BYTES + TAG_BITS / 8) {
			throw new DecryptionException("its ciphertext is too short (" + bytes.length + " bytes) to be one");
		}
		if (bytes[0] != UNBOUND && bytes[0] != BOUND) {
			throw new DecryptionException("its ciphertext has format version " + bytes[0] + ", not " + UNBOUND + " or "
					+ BOUND);
		}
		return new Sealed(id, bytes);
	}

	/**
	 * The plain text of a parsed value.
	 * @param property the property it is read for (required for format 2)
	 * @param keyDescription how messages name the key, never the key itself
	 */
	static String open(SecretKey key, Sealed sealed, @Nullable String property, String keyDescription) {
		byte[] bytes = sealed.bytes();
		try {
			Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
			cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, bytes, 1, IV_BYTES));
			cipher.updateAAD(additionalData(bytes[0], (bytes[0] == BOUND) ? property : null));
			byte[] plain = cipher.doFinal(bytes, 1 + IV_BYTES, bytes.length - 1 - IV_BYTES);
			return new String(plain, StandardCharsets.UTF_8);
		}
		catch (AEADBadTagException ex) {
			if (bytes[0] == BOUND) {
				throw new DecryptionException("it does not authenticate as the value of '" + property + "' with "
						+ keyDescription + ": it was encrypted for another key and moved here, encrypted with another "
						+ "key, or altered");
			}
			throw new DecryptionException("it does not authenticate with " + keyDescription
					+ ": it was encrypted with another key, or altered");
		}
		catch (GeneralSecurityException ex) {
			throw new DecryptionException("AES-GCM is not available (" + ex.getClass().getName() + ")");
		}
	}

	/** The version byte, then, in format 2, the UTF-8 property name. */
	private static byte[] additionalData(byte version, @Nullable String property) {
		if (property == null) {
			return new byte[] { version };
		}
		byte[] name = property.getBytes(StandardCharsets.UTF_8);
		return ByteBuffer.allocate(1 + name.length).put(version).put(name).array();
	}

	/** A value's key id as written ({@code null} for the default key) and its decoded bytes. */
	record Sealed(@Nullable String keyId, byte[] bytes) {

		byte version() {
			return this.bytes[0];
		}

	}

}
