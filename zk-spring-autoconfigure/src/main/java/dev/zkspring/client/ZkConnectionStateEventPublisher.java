package dev.zkspring.client;

import java.util.ArrayDeque;
import java.util.Queue;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Bridges Curator connection-state changes to {@link ZkConnectionStateChangedEvent}s. Public only so
 * the auto-configuration can create it; applications listen for the event instead.
 * <p>
 * Changes seen while the context is still creating its singletons are held and published, in order,
 * on the starting thread once they all exist: publishing from Curator's thread then would make the
 * context create listener beans on that thread, racing the starting thread for the same beans.
 */
public final class ZkConnectionStateEventPublisher
		implements ConnectionStateListener, SmartInitializingSingleton, DisposableBean {

	private static final Log logger = LogFactory.getLog(ZkConnectionStateEventPublisher.class);

	private final CuratorFramework client;

	private final ApplicationEventPublisher publisher;

	private final Object lock = new Object();

	/** Events seen before the singletons exist; null once they have been published. */
	private Queue<ZkConnectionStateChangedEvent> held = new ArrayDeque<>();

	public ZkConnectionStateEventPublisher(CuratorFramework client, ApplicationEventPublisher publisher) {
		this.client = client;
		this.publisher = publisher;
		client.getConnectionStateListenable().addListener(this);
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState newState) {
		ZkConnectionStateChangedEvent event = new ZkConnectionStateChangedEvent(client, newState,
				SessionIds.current(client));
		synchronized (this.lock) {
			if (this.held != null) {
				this.held.add(event);
				return;
			}
		}
		this.publisher.publishEvent(event);
	}

	@Override
	public void afterSingletonsInstantiated() {
		while (true) {
			ZkConnectionStateChangedEvent next;
			synchronized (this.lock) {
				next = this.held.poll();
				if (next == null) {
					this.held = null;
					return;
				}
			}
			try {
				this.publisher.publishEvent(next);
			}
			catch (RuntimeException ex) {
				// as when Curator's thread publishes: a failing listener is reported, and does not stop the startup
				logger.warn("A listener of " + next.getState() + " (held while the context started) failed", ex);
			}
		}
	}

	@Override
	public void destroy() {
		this.client.getConnectionStateListenable().removeListener(this);
	}

}
