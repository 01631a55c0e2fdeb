package dev.zkspring.client;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Bridges Curator connection-state changes to {@link ZkConnectionStateChangedEvent}s. Public only so
 * the auto-configuration can create it; applications listen for the event instead.
 */
public final class ZkConnectionStateEventPublisher implements ConnectionStateListener, DisposableBean {

	private final CuratorFramework client;

	private final ApplicationEventPublisher publisher;

	public ZkConnectionStateEventPublisher(CuratorFramework client, ApplicationEventPublisher publisher) {
		this.client = client;
		this.publisher = publisher;
		client.getConnectionStateListenable().addListener(this);
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState newState) {
		this.publisher.publishEvent(new ZkConnectionStateChangedEvent(client, newState, SessionIds.current(client)));
	}

	@Override
	public void destroy() {
		this.client.getConnectionStateListenable().removeListener(this);
	}

}
