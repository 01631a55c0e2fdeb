package dev.zkspring.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.util.unit.DataSize;

import dev.zkspring.client.ZkClientProperties;
import dev.zkspring.client.ZkClientSettings;
import dev.zkspring.embedded.ZkEmbeddedProperties;

/**
 * What the config center needs of {@code zk.*}, as plain values bound by this package itself
 * ({@link #bind}) before any bean exists, so it never depends on the auto-configuration's types. The
 * defaults are those of the properties classes it binds: {@link ZkClientProperties},
 * {@link ZkEmbeddedProperties} and {@link ZkConfigProperties}.
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
	 * Bind the settings from the Environment's {@code zk.*} keys, through the same properties classes
	 * the auto-configuration binds as beans, so their defaults are the only ones.
	 * @return {@code null} when {@code zk.enabled} or {@code zk.config.enabled} is false
	 */
	static @Nullable ConfigSettings bind(Binder binder) {
		// the switches first, so that nothing else is bound (nor fails to bind) when the config center is off
		if (!binder.bind(ZkClientProperties.PREFIX + ".enabled", Boolean.class)
			.orElseGet(() -> new ZkClientProperties().isEnabled())
				|| !binder.bind(ZkConfigProperties.PREFIX + ".enabled", Boolean.class)
					.orElseGet(() -> new ZkConfigProperties().isEnabled())) {
			return null;
		}
		ZkClientProperties zk = binder.bindOrCreate(ZkClientProperties.PREFIX, ZkClientProperties.class);
		ZkEmbeddedProperties embedded = binder.bindOrCreate(ZkEmbeddedProperties.PREFIX, ZkEmbeddedProperties.class);
		ZkConfigProperties config = binder.bindOrCreate(ZkConfigProperties.PREFIX, ZkConfigProperties.class);
		return new ConfigSettings(zk.toClientSettings(recordRoots(binder)), zk.getConnect(), zk.getConnectionTimeout(),
				zk.getNamespace(), embedded.isEnabled(), embedded.getPort(), embedded.getDataDir(), config.getRoot(),
				config.getDefaultContext(), config.getName(), config.getProfileSeparator(), config.isFailFast(),
				config.isWatch(), config.getSnapshotDir(), config.isSnapshotEnabled(), config.getMaxDocumentSize(),
				EncryptionSettings.of(config.getEncryption()));
	}

	/**
	 * {@code zk.lock.root} and {@code zk.leader.root}, which the client needs before any bean exists (a
	 * repair of ACLs removes what others created below them). Their classes ({@code ZkLockProperties},
	 * {@code ZkLeaderProperties}) are out of this package's reach (the leader package listens to this
	 * one's events), so these two defaults are the one pair written twice; ConfigSettingsTests compares them.
	 */
	private static List<String> recordRoots(Binder binder) {
		return List.of(binder.bind("zk.lock.root", String.class).orElse("/locks"),
				binder.bind("zk.leader.root", String.class).orElse("/leader"));
	}

}
