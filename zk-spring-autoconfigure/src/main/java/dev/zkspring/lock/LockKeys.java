package dev.zkspring.lock;

import java.nio.charset.StandardCharsets;

import org.apache.curator.utils.ZKPaths;

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
		if (key.isEmpty()) {
			throw new IllegalArgumentException("A lock key must not be empty; give @ZkLock a key or the template "
					+ "a non-empty string.");
		}
		if (key.length() > MAX_LENGTH) {
			throw new IllegalArgumentException("A lock key of " + key.length() + " characters is longer than the "
					+ MAX_LENGTH + " allowed; lock on a shorter key, such as an id or a hash of the data.");
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

	private static boolean isSafe(int c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
				|| c == ':';
	}

}
