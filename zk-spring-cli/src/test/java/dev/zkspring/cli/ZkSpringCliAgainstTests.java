package dev.zkspring.cli;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.zkspring.config.ConfigCipher;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --against}: types the application declares are checked before anything is written. */
class ZkSpringCliAgainstTests {

	@RegisterExtension
	static final CliServer zk = CliServer.server().cleaning("/config", "/config.meta");

	private static final String KEY = ConfigCipher.generateKey();

	@TempDir
	Path dir;

	private Path metadata() throws Exception {
		return CliServer.shopMetadata(this.dir);
	}

	@Test
	void valuesThatConvertToTheDeclaredTypesArePublished() throws Exception {
		CliRun run = put("{\"shop\":{\"limit\":5,\"big\":9000000000,\"enabled\":true,\"timeout\":\"10s\","
				+ "\"max-upload\":\"10MB\",\"mode\":\"closed-for-maintenance\",\"ports\":[80,443],"
				+ "\"weights\":{\"a\":1},\"greeting\":\"hi\"}}", metadata());
		assertThat(run.status()).as(run.err()).isZero();
		assertThat(run.err()).doesNotContain("warning");
	}

	@Test
	void aKeyBelowATypeTheMetadataFileDoesNotDescribeIsNotPassedAsChecked() throws Exception {
		CliRun run = put("{\"shop\":{\"limit\":5,\"owners\":[{\"name\":\"x\"}]}}", metadata());
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.UNCHECKED);
		assertThat(run.err()).contains("unchecked: context 'orders': key 'shop.owners[0].name' cannot be checked: its "
				+ "type dev.zkspring.cli.Owner is not in spring-configuration-metadata.json")
			.contains("spring-boot-configuration-processor")
			.contains("nothing was written");
		assertThat(zk.client().checkExists().forPath("/config/orders")).isNull();
	}

	@Test
	void eachDeclaredTypeRefusesAValueThatDoesNotConvertNamingTheKey() throws Exception {
		refused("{\"shop\":{\"limit\":\"five\"}}", "key 'shop.limit' does not convert to java.lang.Integer");
		refused("{\"shop\":{\"big\":\"1.5\"}}", "key 'shop.big' does not convert to long");
		refused("{\"shop\":{\"enabled\":\"perhaps\"}}", "key 'shop.enabled' does not convert to java.lang.Boolean");
		refused("{\"shop\":{\"timeout\":\"ten seconds\"}}", "key 'shop.timeout' does not convert to java.time.Duration");
		refused("{\"shop\":{\"max-upload\":\"huge\"}}", "key 'shop.max-upload' does not convert to "
				+ "org.springframework.util.unit.DataSize");
		refused("{\"shop\":{\"mode\":\"HALF_OPEN\"}}", "key 'shop.mode' does not convert to dev.zkspring.cli.ShopMode "
				+ "as the application declares it (one of [OPEN, CLOSED_FOR_MAINTENANCE])");
		refused("{\"shop\":{\"ports\":[80,\"http\"]}}", "key 'shop.ports[1]' does not convert");
		refused("{\"shop\":{\"ports\":\"80,http\"}}", "key 'shop.ports' does not convert");
		refused("{\"shop\":{\"weights\":{\"a\":\"heavy\"}}}", "key 'shop.weights.a' does not convert");
		assertThat(zk.client().checkExists().forPath("/config/orders")).isNull();
	}

	@Test
	void anUndeclaredKeyIsAWarningAndWithStrictAnError() throws Exception {
		CliRun warned = put("{\"shop\":{\"limt\":5}}", metadata());
		assertThat(warned.status()).isZero();
		assertThat(warned.err()).contains("warning: context 'orders': key 'shop.limt' is not declared");
		CliRun strict = put("{\"shop\":{\"limt\":6}}", metadata(), "--strict");
		assertThat(strict.status()).isEqualTo(Exits.REFUSED);
		assertThat(strict.err()).contains("(--strict)");
		assertThat(new String(zk.client().getData().forPath("/config/orders"), StandardCharsets.UTF_8)).contains("5");
	}

	@Test
	void theMetadataIsReadFromAnExecutableJarAndItsNestedLibraries() throws Exception {
		Path jar = this.dir.resolve("app.jar");
		byte[] library = nestedJar();
		try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
			out.putNextEntry(new JarEntry("BOOT-INF/classes/META-INF/spring-configuration-metadata.json"));
			out.write(Files.readAllBytes(metadata()));
			out.putNextEntry(new JarEntry("BOOT-INF/lib/library.jar"));
			out.write(library);
		}
		refused(jar, "{\"shop\":{\"limit\":\"x\"}}", "key 'shop.limit' does not convert");
		refused(jar, "{\"lib\":{\"port\":\"x\"}}", "key 'lib.port' does not convert to int");
		assertThat(put("{\"shop\":{\"limit\":1},\"lib\":{\"port\":2}}", jar, "--strict").status()).isZero();
		CliRun missing = put("{}", this.dir.resolve("none.jar"));
		assertThat(missing.status()).isEqualTo(Exits.USAGE);
		assertThat(missing.err()).contains("--against").contains("no such file");
	}

	private static byte[] nestedJar() throws Exception {
		var bytes = new java.io.ByteArrayOutputStream();
		try (JarOutputStream out = new JarOutputStream(bytes)) {
			out.putNextEntry(new JarEntry("META-INF/spring-configuration-metadata.json"));
			write(out, "{\"properties\":[{\"name\":\"lib.port\",\"type\":\"int\"}]}");
		}
		return bytes.toByteArray();
	}

	private static void write(OutputStream out, String text) throws Exception {
		out.write(text.getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void theTypeOfAnEncryptedValueIsCheckedWhenItsKeyIsThere() throws Exception {
		Map<String, String> env = Map.of("ZK_CONFIG_ENCRYPTION_KEY", KEY);
		CliRun run = put(env, "{\"shop\":{\"limit\":\"" + ConfigCipher.ofKey(KEY).encrypt("five") + "\"}}", metadata());
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.REFUSED);
		assertThat(run.err()).contains("key 'shop.limit' does not convert to java.lang.Integer").doesNotContain("five");
		assertThat(zk.client().checkExists().forPath("/config/orders")).isNull();
		String good = "{\"shop\":{\"limit\":\"" + ConfigCipher.ofKey(KEY).encrypt("5") + "\"}}";
		assertThat(put(env, good, metadata()).status()).isZero();
	}

	@Test
	void aValueEncryptedWithAKeyIdIsCheckedWithThatIdsVariable() throws Exception {
		String sealed = ConfigCipher.empty().withKey("r1", KEY).encrypt("five", "r1");
		CliRun run = put(Map.of("ZK_CONFIG_ENCRYPTION_KEYS_R1", KEY), "{\"shop\":{\"limit\":\"" + sealed + "\"}}",
				metadata());
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.REFUSED);
		assertThat(run.err()).contains("key 'shop.limit' does not convert to java.lang.Integer").doesNotContain("five");
	}

	@Test
	void theTypeOfAnEncryptedValueIsSkippedWithANoteWithoutItsKey() throws Exception {
		CliRun run = put("{\"shop\":{\"limit\":\"" + ConfigCipher.ofKey(KEY).encrypt("five") + "\"}}", metadata());
		assertThat(run.status()).as(run.err()).isZero();
		assertThat(run.err()).contains("note: context 'orders': key 'shop.limit' is encrypted and "
				+ "ZK_CONFIG_ENCRYPTION_KEY is not set: its type is not checked");
		assertThat(zk.client().checkExists().forPath("/config/orders")).isNotNull();
	}

	private void refused(String document, String message) throws Exception {
		refused(metadata(), document, message);
	}

	private void refused(Path against, String document, String message) throws Exception {
		CliRun run = put(document, against);
		assertThat(run.status()).as(run.err()).isEqualTo(Exits.REFUSED);
		assertThat(run.err()).contains(message).contains("nothing was written");
	}

	private CliRun put(String document, Path against, String... more) throws Exception {
		return put(Map.of(), document, against, more);
	}

	private CliRun put(Map<String, String> env, String document, Path against, String... more) throws Exception {
		Path file = Files.createTempFile(this.dir, "doc", ".json");
		Files.writeString(file, document);
		String[] args = new String[6 + more.length];
		String[] base = { "config", "put", "orders", file.toString(), "--against", against.toString() };
		System.arraycopy(base, 0, args, 0, 6);
		System.arraycopy(more, 0, args, 6, more.length);
		Map<String, String> all = new HashMap<>(env);
		all.put("ZK_CONNECT", zk.connectString());
		return CliRun.runWithEnv(all, "", args);
	}

}
