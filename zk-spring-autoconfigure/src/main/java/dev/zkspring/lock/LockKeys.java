package dev.zkspring.lock;

import java.nio.charset.StandardCharsets;

import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * Turns a lock key, which is data, into the name of one znode under the lock root. Every byte that is
 * not a letter, digit, '-', '_' or ':' is percent-encoded, so '/', '.', '..' and control characters
 * can never address another node.
 */
final class LockKeys {

	static final int MAX_LENGTH = 512;

	private static final char[] HEX = "0123456789ABCDEF".toCharArray();

	private LockKeys() {
	}

	static String path(String root, String key) {
		return ZKPaths.makePath(root, encode(key));
	}

	static String encode(String key) {
		String problem = problem(key);
		if (problem != null) {
			throw new IllegalArgumentException("A lock key " + problem);
		}
		byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
		StringBuilder name = new StringBuilder(bytes.length);
		for (byte b : bytes) {
			int c = b & 0xFF;
			if (isSafe(c)) {
				name.append((char) c);
			}
			else {
				name.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
			}
		}
		return name.toString();
	}

	/**
	 * Why the key cannot name a node faithfully, completing "A lock key ..."; {@code null} when it can.
	 * A lone UTF-16 surrogate has no UTF-8 form: encoded, it would become '?' and share a node with
	 * other keys.
	 */
	static @Nullable String problem(String key) {
		if (key.isEmpty()) {
			return "must not be empty; give @ZkLock a key or the template a non-empty string.";
		}
		if (key.length() > MAX_LENGTH) {
			return "of " + key.length() + " characters is longer than the " + MAX_LENGTH
					+ " allowed; lock on a shorter key, such as an id or a hash of the data.";
		}
		for (int i = 0; i < key.length(); i++) {
			char c = key.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				return "is not valid Unicode: it has a lone UTF-16 surrogate at index " + i
						+ ", which cannot be encoded faithfully (different keys would share one lock); lock on "
						+ "well-formed text, such as an id.";
			}
		}
		return null;
	}

	private static boolean isSafe(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
				|| c == ':';
	}

}
