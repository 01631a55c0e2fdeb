package dev.zkspring.cli;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import dev.zkspring.config.ConfigCipher;

/**
 * Lets {@code --against} check the types of {@code {cipher}} values: decrypted in memory with the key in
 * {@code ZK_CONFIG_ENCRYPTION_KEY} (or {@code ZK_CONFIG_ENCRYPTION_KEYS_<ID>} for {@code {cipher:ID}}),
 * or left out of the type check with a note when no key is there. Nothing decrypted is printed.
 */
final class Ciphertexts {

	private Ciphertexts() {
	}

	static Map<String, String> seeThrough(Map<String, String> document, Map<String, String> env, Consumer<String> note) {
		Map<String, String> checked = new LinkedHashMap<>();
		for (Map.Entry<String, String> entry : document.entrySet()) {
			String value = entry.getValue();
			if (!ConfigCipher.isEncrypted(value)) {
				checked.put(entry.getKey(), value);
				continue;
			}
			String keyId = ConfigCipher.keyIdOf(value);
			String variable = keyVariable(keyId);
			String key = env.get(variable);
			if (key == null || key.isBlank()) {
				note.accept("key '" + entry.getKey() + "' is encrypted and " + variable
						+ " is not set: its type is not checked");
				continue;
			}
			try {
				ConfigCipher cipher = (keyId != null) ? ConfigCipher.empty().withKey(keyId, key) : ConfigCipher.ofKey(key);
				checked.put(entry.getKey(), cipher.decryptFor(entry.getKey(), value));
			}
			catch (IllegalArgumentException ex) {
				note.accept("key '" + entry.getKey() + "' cannot be decrypted with " + variable + " ("
						+ ex.getMessage() + "): its type is not checked, and instances without the right key"
						+ " will refuse the document");
			}
		}
		return checked;
	}

	/**
	 * The environment variable holding the key of {@code {cipher:ID}} values (the default key's for none), as
	 * the instances bind it to {@code zk.config.encryption.keys.ID}.
	 */
	static String keyVariable(@Nullable String keyId) {
		return (keyId != null)
				? ConfigCipher.KEY_ENVIRONMENT_VARIABLE + "S_" + keyId.toUpperCase(Locale.ROOT).replace('-', '_')
				: ConfigCipher.KEY_ENVIRONMENT_VARIABLE;
	}

}
