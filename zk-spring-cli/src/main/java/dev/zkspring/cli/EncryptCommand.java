package dev.zkspring.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
				+ "encrypted with the key in " + ConfigCipher.KEY_ENVIRONMENT_VARIABLE + " (AES-256-GCM) for the key "
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
			description = "Write {cipher:ID}: the instances decrypt it with zk.config.encryption.keys.ID.")
	String keyId;

	@Override
	public Integer call() throws IOException {
		String key = this.config.cli.env.get(ConfigCipher.KEY_ENVIRONMENT_VARIABLE);
		if (key == null || key.isBlank()) {
			throw new IllegalArgumentException(ConfigCipher.KEY_ENVIRONMENT_VARIABLE + " is not set: export the "
					+ "base64 256-bit key the instances use (openssl rand -base64 32 makes one)");
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
