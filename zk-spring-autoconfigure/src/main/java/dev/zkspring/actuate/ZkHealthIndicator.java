package dev.zkspring.actuate;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.ZooKeeper;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import dev.zkspring.config.ZkConfigStatus;
import dev.zkspring.leader.ZkLeaderElection;

/**
 * The {@code zookeeper} health contributor: DOWN while the client is not connected; details are the
 * connection, where the configuration in force came from (with {@code degraded: true} when it is the
 * snapshot or nothing) and each context's version, and the leadership.
 */
public final class ZkHealthIndicator extends AbstractHealthIndicator implements ConnectionStateListener,
		DisposableBean {

	private final CuratorFramework client;

	private final @Nullable ZkConfigStatus configStatus;

	private final @Nullable ZkConfigActivity configActivity;

	private final List<ZkLeaderElection> elections;

	private volatile @Nullable ConnectionState lastState;

	/**
	 * Create the contributor and start following the client's connection state.
	 * @param client the application's client
	 * @param configStatus the config center's status, {@code null} without the config center
	 * @param configActivity what the config center did, {@code null} without it
	 * @param elections the application's leader elections
	 */
	public ZkHealthIndicator(CuratorFramework client, @Nullable ZkConfigStatus configStatus,
			@Nullable ZkConfigActivity configActivity, List<ZkLeaderElection> elections) {
		super("ZooKeeper health check failed");
		this.client = client;
		this.configStatus = configStatus;
		this.configActivity = configActivity;
		this.elections = List.copyOf(elections);
		client.getConnectionStateListenable().addListener(this);
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState state) {
		this.lastState = state;
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) {
		boolean connected = this.client.getZookeeperClient().isConnected();
		builder.status(connected ? Status.UP : Status.DOWN);
		ConnectionState state = this.lastState;
		builder.withDetail("state", (state != null) ? state.name() : (connected ? "CONNECTED" : "DISCONNECTED"));
		ZooKeeper zooKeeper = zooKeeper();
		if (zooKeeper != null) {
			builder.withDetail("sessionId", "0x" + Long.toHexString(zooKeeper.getSessionId()));
			builder.withDetail("sessionTimeout", Duration.ofMillis(zooKeeper.getSessionTimeout()).toString());
		}
		if (this.configStatus != null) {
			builder.withDetail("config", config(this.configStatus));
		}
		if (!this.elections.isEmpty()) {
			builder.withDetail("leadership", leadership());
		}
	}

	private @Nullable ZooKeeper zooKeeper() {
		try {
			return this.client.getZookeeperClient().getZooKeeper();
		}
		catch (Exception ex) {
			return null;
		}
	}

	private Map<String, Object> config(ZkConfigStatus status) {
		Map<String, Object> config = new LinkedHashMap<>();
		config.put("source", status.getSource().name());
		config.put("degraded", status.isDegraded());
		if (this.configActivity != null) {
			config.put("contexts", this.configActivity.describeContexts());
		}
		return config;
	}

	private Map<String, Object> leadership() {
		Map<String, Object> groups = new LinkedHashMap<>();
		for (ZkLeaderElection election : this.elections) {
			groups.put(election.latchPath(), Leadership.describe(election, false));
		}
		return groups;
	}

	@Override
	public void destroy() {
		this.client.getConnectionStateListenable().removeListener(this);
	}

}
