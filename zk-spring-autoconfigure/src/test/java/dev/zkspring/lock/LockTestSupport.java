package dev.zkspring.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationEventPublisher;

import dev.zkspring.autoconfigure.ZkProperties;

/** A template per client (per "JVM"), recording the events it publishes. */
final class LockTestSupport implements ApplicationEventPublisher {

	final List<Object> events = new CopyOnWriteArrayList<>();

	final ZkLockTemplate template;

	final CuratorFramework client;

	LockTestSupport(CuratorFramework client) {
		this(client, 16, false);
	}

	LockTestSupport(CuratorFramework client, int maxLocalHandoffs, boolean interruptOnLoss) {
		this.client = client;
		ZkProperties.Lock properties = new ZkProperties.Lock();
		properties.setMaxLocalHandoffs(maxLocalHandoffs);
		properties.setInterruptOnLoss(interruptOnLoss);
		properties.setDefaultWait(Duration.ofSeconds(10));
		this.template = new ZkLockTemplate(client, properties, this);
	}

	@Override
	public void publishEvent(ApplicationEvent event) {
		this.events.add(event);
	}

	@Override
	public void publishEvent(Object event) {
		this.events.add(event);
	}

	List<ZkLockLostEvent> lostEvents() {
		return this.events.stream()
			.filter(ZkLockLostEvent.class::isInstance)
			.map(ZkLockLostEvent.class::cast)
			.toList();
	}

}
