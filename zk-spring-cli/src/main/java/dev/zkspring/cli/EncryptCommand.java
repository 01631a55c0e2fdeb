package dev.zkspring.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.config.ConfigCipher;

/**
 * {@code config encrypt}: the {@code {cipher}} form of one value read from stdin, so a secret never sits
 * in a shell's history or a process list, with the key the instances read from the same variable.
 */
@Command(name = "encrypt", mixinStandardHelpOptions = true,
		description = { "Read one value from stdin (never from the command line) and print its {cipher} form, "
				+ "encrypted (AES-256-GCM) with the key in " + ConfigCipher.KEY_ENVIRONMENT_VARIABLE + ", or with --key-id ID "
				+ "the key in " + ConfigCipher.KEY_ENVIRONMENT_VARIABLE + "S_<ID> (upper case, - as _), for the key "
				+ "it will be written under (--property): instances refuse it under any other key. "
				+ "One trailing newline is dropped; pipe with printf '%%s' to keep one." },
		footer = { "%nExample:%n  read -rs PASSWORD; printf '%%s' \"$PASSWORD\" | zk-spring config encrypt --property db.password --key-id 2026" })
final class EncryptCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Option(names = "--property", paramLabel = "KEY", required = true,
			description = "The key the value is written under in the document, as flattened (db.password, "
					+ "servers[0].password): the value decrypts only there.")
	String property;

	@Option(names = "--key-id", paramLabel = "ID",
			description = "Seal with the key in ZK_CONFIG_ENCRYPTION_KEYS_<ID> and write {cipher:ID}: the instances "
					+ "decrypt it with zk.config.encryption.keys.ID, which must be the same key.")
	String keyId;

	@Override
	public Integer call() throws IOException {
		if (this.keyId != null) {
			// a bad id is refused as the instances refuse it, before naming a variable made from it
			ConfigCipher.empty().withKey(this.keyId, ConfigCipher.generateKey());
		}
		// the key the instances decrypt the value with: the default one, or the id's own
		String variable = Ciphertexts.keyVariable(this.keyId);
		String key = this.config.cli.env.get(variable);
		if (key == null || key.isBlank()) {
			throw new IllegalArgumentException(variable + " is not set: export the base64 256-bit key the instances use"
					+ ((this.keyId != null) ? " as " + ConfigCipher.KEYS_PROPERTY + "." + this.keyId.toLowerCase(Locale.ROOT)
							: " as " + ConfigCipher.KEY_PROPERTY)
					+ " (openssl rand -base64 32 makes a new one)");
		}
		String plain = new String(this.config.cli.in.readAllBytes(), StandardCharsets.UTF_8);
		plain = plain.endsWith("\r\n") ? plain.substring(0, plain.length() - 2)
				: plain.endsWith("\n") ? plain.substring(0, plain.length() - 1) : plain;
		if (plain.isEmpty()) {
			throw new IllegalArgumentException("stdin held no value: pipe the value to encrypt into the command");
		}
		// a bad key or key id is refused naming which, never quoting the key
		ConfigCipher cipher = (this.keyId != null) ? ConfigCipher.empty().withKey(this.keyId, key) : ConfigCipher.ofKey(key);
		String sealed = (this.keyId != null) ? cipher.encryptFor(this.property, plain, this.keyId)
				: cipher.encryptFor(this.property, plain);
		this.config.spec.commandLine().getOut().println(sealed);
		return Exits.DONE;
	}

}
