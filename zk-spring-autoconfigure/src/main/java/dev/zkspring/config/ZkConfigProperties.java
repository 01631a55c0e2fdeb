package dev.zkspring.config;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

/**
 * {@code zk.config.*}: configuration kept as JSON documents in znodes, loaded before any bean is created
 * and watched. The config center binds this class itself at bootstrap ({@link ConfigSettings#bind}), and
 * the auto-configuration binds it as a bean, so each default is written here once.
 */
@ConfigurationProperties(ZkConfigProperties.PREFIX)
public class ZkConfigProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "zk.config";

	/** Whether to load configuration from ZooKeeper into the Environment at startup. */
	private boolean enabled = true;

	/** Znode under which the context nodes (application, application,{profile}, {name}, ...) live. */
	private String root = "/config";

	/** Name of the context every application reads, below its own. */
	private String defaultContext = "application";

	/** Name of this application's context; unset means spring.application.name. */
	private @Nullable String name;

	/** Separator between a context name and a profile in a context node's name. */
	private String profileSeparator = ",";

	/** Whether startup fails when a context document is bad or ZooKeeper cannot be reached without a snapshot. */
	private boolean failFast = true;

	/** Whether to watch the context nodes and apply changes while the application runs. */
	private boolean watch = true;

	/** Directory of the last-known-good snapshot; unset means ~/.zk-spring/config-snapshots. */
	private @Nullable Path snapshotDir;

	/** Whether to write the last-known-good snapshot and start from it when ZooKeeper is down; tests turn it off. */
	private boolean snapshotEnabled = true;

	/** Largest context document accepted; larger ones are rejected. */
	private DataSize maxDocumentSize = DataSize.ofMegabytes(1);

	/** Keys that decrypt {cipher} values of the documents. */
	@NestedConfigurationProperty
	private final ZkEncryptionProperties encryption = new ZkEncryptionProperties();

	public ZkEncryptionProperties getEncryption() {
		return this.encryption;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public String getRoot() {
		return this.root;
	}

	public void setRoot(String root) {
		this.root = root;
	}

	public String getDefaultContext() {
		return this.defaultContext;
	}

	public void setDefaultContext(String defaultContext) {
		this.defaultContext = defaultContext;
	}

	public @Nullable String getName() {
		return this.name;
	}

	public void setName(@Nullable String name) {
		this.name = name;
	}

	public String getProfileSeparator() {
		return this.profileSeparator;
	}

	public void setProfileSeparator(String profileSeparator) {
		this.profileSeparator = profileSeparator;
	}

	public boolean isFailFast() {
		return this.failFast;
	}

	public void setFailFast(boolean failFast) {
		this.failFast = failFast;
	}

	public boolean isWatch() {
		return this.watch;
	}

	public void setWatch(boolean watch) {
		this.watch = watch;
	}

	public @Nullable Path getSnapshotDir() {
		return this.snapshotDir;
	}

	public void setSnapshotDir(@Nullable Path snapshotDir) {
		this.snapshotDir = snapshotDir;
	}

	public boolean isSnapshotEnabled() {
		return this.snapshotEnabled;
	}

	public void setSnapshotEnabled(boolean snapshotEnabled) {
		this.snapshotEnabled = snapshotEnabled;
	}

	public DataSize getMaxDocumentSize() {
		return this.maxDocumentSize;
	}

	public void setMaxDocumentSize(DataSize maxDocumentSize) {
		this.maxDocumentSize = maxDocumentSize;
	}

}
