package dev.zkspring.client;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;

import org.springframework.context.ApplicationEvent;

/**
 * The application's ZooKeeper connection changed state, so beans can react to SUSPENDED (in doubt),
 * LOST (session and ephemeral nodes gone) and RECONNECTED without touching Curator listeners.
 * Published on Curator's connection-state thread, never on ZooKeeper's event thread.
 */
public class ZkConnectionStateChangedEvent extends ApplicationEvent {

	private final ConnectionState state;

	private final long sessionId;

	public ZkConnectionStateChangedEvent(CuratorFramework client, ConnectionState state, long sessionId) {
		super(client);
		this.state = state;
		this.sessionId = sessionId;
	}

	/** The client whose connection changed. */
	public CuratorFramework getClient() {
		return (CuratorFramework) getSource();
	}

	/** The new state. */
	public ConnectionState getState() {
		return this.state;
	}

	/** The session the client has now; 0 when it has none. */
	public long getSessionId() {
		return this.sessionId;
	}

	@Override
	public String toString() {
		return "ZkConnectionStateChangedEvent[" + this.state + ", session " + SessionIds.format(this.sessionId) + "]";
	}

}
