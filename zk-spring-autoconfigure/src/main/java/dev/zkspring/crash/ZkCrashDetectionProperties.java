package dev.zkspring.crash;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code zk.crash-detection.*}: a crashed instance's leadership and locks move in milliseconds instead of after
 * the session timeout.
 */
@ConfigurationProperties(ZkCrashDetectionProperties.PREFIX)
public class ZkCrashDetectionProperties {

	/** The prefix of these properties. */
	public static final String PREFIX = "zk.crash-detection";

	/** Whether this instance listens for watchers and watches the instances it waits behind, ending a crashed one's session at once. */
	private boolean enabled = true;

	/** Address to listen on and to publish to peers; by default every interface, publishing the one that reaches ZooKeeper. */
	private @Nullable String address;

	/** TCP port to listen on for peers that watch this instance; 0 for any free port. */
	private int port = 0;

	/** How long every reconnect to a peer whose connection closed must be refused before it counts as dead. */
	private Duration reconnectTimeout = Duration.ofMillis(100);

	/** Path of the session cards (address, session id and password; creator-only with zk.auth). */
	private String root = "/crash";

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getAddress() {
		return this.address;
	}

	public void setAddress(@Nullable String address) {
		this.address = address;
	}

	public int getPort() {
		return this.port;
	}

	public void setPort(int port) {
		this.port = port;
	}

	public Duration getReconnectTimeout() {
		return this.reconnectTimeout;
	}

	public void setReconnectTimeout(Duration reconnectTimeout) {
		this.reconnectTimeout = reconnectTimeout;
	}

	public String getRoot() {
		return this.root;
	}

	public void setRoot(String root) {
		this.root = root;
	}

}
