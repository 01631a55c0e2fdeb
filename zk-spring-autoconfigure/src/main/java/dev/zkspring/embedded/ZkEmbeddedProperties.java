package dev.zkspring.embedded;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code zk.embedded.*}: an in-process ZooKeeper for development and demos, never enabled implicitly.
 * Bound by the config center before any bean exists and by the auto-configuration, so each default is
 * written here once.
 */
@ConfigurationProperties(ZkEmbeddedProperties.PREFIX)
public class ZkEmbeddedProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "zk.embedded";

	/** Whether to start an in-process ZooKeeper and connect to it instead of zk.connect. */
	private boolean enabled;

	/** Port the embedded server listens on, on the loopback address; 0 picks a free port. */
	private int port;

	/** Directory for the embedded server's data; unset means a temporary directory removed on close. */
	private @Nullable Path dataDir;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getPort() {
		return this.port;
	}

	public void setPort(int port) {
		this.port = port;
	}

	public @Nullable Path getDataDir() {
		return this.dataDir;
	}

	public void setDataDir(@Nullable Path dataDir) {
		this.dataDir = dataDir;
	}

}
