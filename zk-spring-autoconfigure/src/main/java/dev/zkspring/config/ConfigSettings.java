package dev.zkspring.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.util.unit.DataSize;

import dev.zkspring.client.ZkClientSettings;

/**
 * What the config center needs of {@code zk.*}, as plain values bound by this package itself
 * ({@link #bind}) before any bean exists, so it never depends on the auto-configuration's types. The
 * defaults are those of the {@code zk.*} properties (a test compares the two).
 * @param client how to build the client
 * @param connect {@code zk.connect}
 * @param connectionTimeout {@code zk.connection-timeout}
 * @param namespace {@code zk.namespace}
 * @param embedded whether to start the embedded server ({@code zk.embedded.enabled})
 * @param embeddedPort {@code zk.embedded.port}
 * @param embeddedDataDir {@code zk.embedded.data-dir}
 * @param root {@code zk.config.root}
 * @param defaultContext {@code zk.config.default-context}
 * @param name {@code zk.config.name}
 * @param profileSeparator {@code zk.config.profile-separator}
 * @param failFast {@code zk.config.fail-fast}
 * @param watch {@code zk.config.watch}
 * @param snapshotDir {@code zk.config.snapshot-dir}
 * @param snapshotEnabled {@code zk.config.snapshot-enabled}
 * @param maxDocumentSize {@code zk.config.max-document-size}
 * @param encryption {@code zk.config.encryption.*}
 */
record ConfigSettings(ZkClientSettings client, @Nullable String connect, Duration connectionTimeout,
		@Nullable String namespace, boolean embedded, int embeddedPort, @Nullable Path embeddedDataDir, String root,
		String defaultContext, @Nullable String name, String profileSeparator, boolean failFast, boolean watch,
		@Nullable Path snapshotDir, boolean snapshotEnabled, @Nullable DataSize maxDocumentSize,
		EncryptionSettings encryption) {

	/**
	 * Bind the settings from the Environment's {@code zk.*} keys.
	 * @return {@code null} when {@code zk.enabled} or {@code zk.config.enabled} is false
	 */
	static @Nullable ConfigSettings bind(Binder binder) {
		Keys zk = new Keys(binder);
		if (!zk.get("enabled", Boolean.class, true) || !zk.get("config.enabled", Boolean.class, true)) {
			return null;
		}
		Duration connectionTimeout = zk.get("connection-timeout", Duration.class, Duration.ofSeconds(10));
		String namespace = zk.get("namespace", String.class, null);
		ZkClientSettings client = new ZkClientSettings(namespace,
				zk.get("session-timeout", Duration.class, Duration.ofSeconds(30)), connectionTimeout,
				new ZkClientSettings.Retry(zk.get("retry.base-sleep", Duration.class, Duration.ofMillis(100)),
						zk.get("retry.max-retries", Integer.class, 5),
						zk.get("retry.max-sleep", Duration.class, Duration.ofSeconds(2))),
				new ZkClientSettings.Auth(zk.get("auth.scheme", String.class, "digest"),
						zk.get("auth.credentials", String.class, null), zk.get("auth.repair-acls", Boolean.class, false),
						List.of(zk.get("lock.root", String.class, "/locks"), zk.get("leader.root", String.class, "/leader"))),
				new ZkClientSettings.Tls(zk.get("ssl.enabled", Boolean.class, false),
						zk.get("ssl.key-store", Path.class, null), zk.get("ssl.key-store-password", String.class, null),
						zk.get("ssl.key-store-type", String.class, null), zk.get("ssl.trust-store", Path.class, null),
						zk.get("ssl.trust-store-password", String.class, null),
						zk.get("ssl.trust-store-type", String.class, null),
						zk.get("ssl.hostname-verification", Boolean.class, true)));
		return new ConfigSettings(client, zk.get("connect", String.class, null), connectionTimeout, namespace,
				zk.get("embedded.enabled", Boolean.class, false), zk.get("embedded.port", Integer.class, 0),
				zk.get("embedded.data-dir", Path.class, null), zk.get("config.root", String.class, "/config"),
				zk.get("config.default-context", String.class, "application"),
				zk.get("config.name", String.class, null), zk.get("config.profile-separator", String.class, ","),
				zk.get("config.fail-fast", Boolean.class, true), zk.get("config.watch", Boolean.class, true),
				zk.get("config.snapshot-dir", Path.class, null), zk.get("config.snapshot-enabled", Boolean.class, true),
				zk.get("config.max-document-size", DataSize.class, DataSize.ofMegabytes(1)),
				EncryptionSettings.bind(binder));
	}

	/** One {@code zk.*} key at a time, with its default. */
	private record Keys(Binder binder) {

		<T> T get(String key, Class<T> type, @Nullable T fallback) {
			return this.binder.bind("zk." + key, Bindable.of(type)).orElse(fallback);
		}

	}

}
