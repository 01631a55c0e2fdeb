package dev.zkspring.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import dev.zkspring.client.ZkClientProperties;
import dev.zkspring.embedded.ZkEmbeddedProperties;
import dev.zkspring.leader.ZkLeaderProperties;
import dev.zkspring.lock.ZkLockProperties;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The config package binds its own settings (it never imports the auto-configuration) through the
 * properties classes the beans bind, so it reads every {@code zk.*} key as they do; the lock and leader
 * roots, whose classes it cannot reach, are compared with those classes' defaults here.
 */
class ConfigSettingsTests {

	@Test
	void defaultsAreThoseOfThePropertiesClasses() {
		assertThat(ConfigSettings.bind(binder(Map.of()))).isEqualTo(fromProperties(Map.of()));
	}

	@Test
	void everyKeyIsReadAsThePropertiesClassesReadIt() {
		Map<String, String> values = Map.ofEntries(Map.entry("zk.connect", "a:1,b:2"), Map.entry("zk.namespace", "ns"),
				Map.entry("zk.session-timeout", "7s"), Map.entry("zk.connection-timeout", "3s"),
				Map.entry("zk.retry.base-sleep", "20ms"), Map.entry("zk.retry.max-retries", "9"),
				Map.entry("zk.retry.max-sleep", "1s"), Map.entry("zk.auth.scheme", "sasl"),
				Map.entry("zk.auth.credentials", "u:p"), Map.entry("zk.auth.repair-acls", "true"),
				Map.entry("zk.ssl.enabled", "true"), Map.entry("zk.ssl.key-store", "/k.p12"),
				Map.entry("zk.ssl.key-store-password", "kp"), Map.entry("zk.ssl.key-store-type", "PKCS12"),
				Map.entry("zk.ssl.trust-store", "/t.p12"), Map.entry("zk.ssl.trust-store-password", "tp"),
				Map.entry("zk.ssl.trust-store-type", "JKS"), Map.entry("zk.ssl.hostname-verification", "false"),
				Map.entry("zk.embedded.enabled", "true"), Map.entry("zk.embedded.port", "2999"),
				Map.entry("zk.embedded.data-dir", "/d"), Map.entry("zk.config.root", "/cfg"),
				Map.entry("zk.config.default-context", "shared"), Map.entry("zk.config.name", "shop"),
				Map.entry("zk.config.profile-separator", "-"), Map.entry("zk.config.fail-fast", "false"),
				Map.entry("zk.config.watch", "false"), Map.entry("zk.config.snapshot-dir", "/s"),
				Map.entry("zk.config.snapshot-enabled", "false"),
				Map.entry("zk.config.max-document-size", "64KB"), Map.entry("zk.config.encryption.key", "k"),
				Map.entry("zk.config.encryption.keys.k2026", "k2"), Map.entry("zk.config.encryption.key-store.location", "/e.p12"),
				Map.entry("zk.config.encryption.key-store.password", "ep"),
				Map.entry("zk.config.encryption.key-store.alias", "a"), Map.entry("zk.config.encryption.key-store.type", "JCEKS"),
				Map.entry("zk.config.encryption.key-store.key-password", "kp"), Map.entry("zk.lock.root", "/l"),
				Map.entry("zk.leader.root", "/e"));
		assertThat(ConfigSettings.bind(binder(values))).isEqualTo(fromProperties(values));
	}

	@Test
	void zkEnabledOrConfigEnabledFalseMeansNoSettings() {
		assertThat(ConfigSettings.bind(binder(Map.of("zk.enabled", "false")))).isNull();
		assertThat(ConfigSettings.bind(binder(Map.of("zk.config.enabled", "false")))).isNull();
	}

	@Test
	void nothingElseIsBoundWhenTheConfigCenterIsOff() {
		assertThat(ConfigSettings.bind(binder(Map.of("zk.enabled", "false", "zk.session-timeout", "soon")))).isNull();
		assertThat(ConfigSettings.bind(binder(Map.of("zk.config.enabled", "false", "zk.config.max-document-size", "big"))))
			.isNull();
	}

	@Test
	void noCapabilityPackageImportsTheAutoConfiguration() throws IOException {
		Path main = Path.of("src/main/java/dev/zkspring");
		try (Stream<Path> files = Files.walk(main)) {
			List<String> offenders = files.filter((file) -> file.toString().endsWith(".java"))
				.filter((file) -> !file.startsWith(main.resolve("autoconfigure")))
				.filter((file) -> read(file).contains("import dev.zkspring.autoconfigure."))
				.map(Path::toString)
				.toList();
			assertThat(offenders).isEmpty();
		}
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Binder binder(Map<String, String> values) {
		return new Binder(new MapConfigurationPropertySource(values));
	}

	/** What the beans bind: each capability's properties class, the roots from the lock's and the leader's. */
	private static ConfigSettings fromProperties(Map<String, String> values) {
		Binder binder = binder(values);
		ZkClientProperties zk = binder.bindOrCreate(ZkClientProperties.PREFIX, ZkClientProperties.class);
		ZkEmbeddedProperties embedded = binder.bindOrCreate(ZkEmbeddedProperties.PREFIX, ZkEmbeddedProperties.class);
		ZkConfigProperties config = binder.bindOrCreate(ZkConfigProperties.PREFIX, ZkConfigProperties.class);
		List<String> recordRoots = List.of(binder.bindOrCreate(ZkLockProperties.PREFIX, ZkLockProperties.class).getRoot(),
				binder.bindOrCreate(ZkLeaderProperties.PREFIX, ZkLeaderProperties.class).getRoot());
		return new ConfigSettings(zk.toClientSettings(recordRoots), zk.getConnect(), zk.getConnectionTimeout(),
				zk.getNamespace(), embedded.isEnabled(), embedded.getPort(), embedded.getDataDir(), config.getRoot(),
				config.getDefaultContext(), config.getName(), config.getProfileSeparator(), config.isFailFast(),
				config.isWatch(), config.getSnapshotDir(), config.isSnapshotEnabled(), config.getMaxDocumentSize(),
				encryption(config.getEncryption()));
	}

	/** Written out field by field, so a value the early binding drops is noticed. */
	private static EncryptionSettings encryption(ZkEncryptionProperties encryption) {
		ZkEncryptionProperties.KeyStore store = encryption.getKeyStore();
		return new EncryptionSettings(encryption.getKey(), new TreeMap<>(encryption.getKeys()), store.getLocation(),
				store.getPassword(), store.getAlias(), store.getType(), store.getKeyPassword(),
				encryption.isAcceptUnboundValues());
	}

}
