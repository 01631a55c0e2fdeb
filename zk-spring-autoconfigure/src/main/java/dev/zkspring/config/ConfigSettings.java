package dev.zkspring.config;

import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.util.unit.DataSize;

import dev.zkspring.client.ZkClientSettings;

/**
 * What the config center needs of {@code zk.*}, as plain values: the initializer's binding step makes
 * it from the bound properties, so this package never depends on the auto-configuration's types.
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
 * @param maxDocumentSize {@code zk.config.max-document-size}
 */
record ConfigSettings(ZkClientSettings client, @Nullable String connect, Duration connectionTimeout,
		@Nullable String namespace, boolean embedded, int embeddedPort, @Nullable Path embeddedDataDir, String root,
		String defaultContext, @Nullable String name, String profileSeparator, boolean failFast, boolean watch,
		@Nullable Path snapshotDir, @Nullable DataSize maxDocumentSize) {
}
