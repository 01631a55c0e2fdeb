package dev.zkspring.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationEventPublisher;

import dev.zkspring.client.SessionLease;

import static org.assertj.core.api.Assertions.assertThat;

/** A template per client (per "JVM"), recording the events it publishes. */
final class LockTestSupport implements ApplicationEventPublisher {

	final List<Object> events = new CopyOnWriteArrayList<>();

	final ZkLockTemplate template;

	final CuratorFramework client;

	final SessionLease lease;

	LockTestSupport(CuratorFramework client) {
		this(client, 16, false);
	}

	LockTestSupport(CuratorFramework client, int maxLocalHandoffs, boolean interruptOnLoss) {
		this.client = client;
		this.lease = SessionLease.start(client);
		this.template = new ZkLockTemplate(client, this.lease,
				new ZkLockTemplate.Settings("/locks", Duration.ofSeconds(10), maxLocalHandoffs, interruptOnLoss), this);
	}

	/** When set, every event waits at this gate before it is recorded: a slow listener. */
	volatile CountDownLatch eventGate;

	/** Counted down when an event reaches the publisher (before the gate). */
	final CountDownLatch eventArrived = new CountDownLatch(1);

	@Override
	public void publishEvent(ApplicationEvent event) {
		publishEvent((Object) event);
	}

	@Override
	public void publishEvent(Object event) {
		this.eventArrived.countDown();
		CountDownLatch gate = this.eventGate;
		if (gate != null) {
			try {
				gate.await(60, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.events.add(event);
	}

	/** Hold the key on another thread of this "JVM" while the action runs. */
	static void holdWhile(LockTestSupport holder, ZkLock.Mode mode, String key, ThrowingRunnable action)
			throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(1);
		Thread thread = new Thread(() -> holder.template.execute(key, mode, Duration.ofSeconds(5), () -> {
			held.countDown();
			return done.await(30, TimeUnit.SECONDS);
		}));
		thread.start();
		assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
		try {
			action.run();
		}
		finally {
			done.countDown();
			thread.join(10_000);
		}
	}

	List<ZkLockLostEvent> lostEvents() {
		return this.events.stream()
			.filter(ZkLockLostEvent.class::isInstance)
			.map(ZkLockLostEvent.class::cast)
			.toList();
	}

	@FunctionalInterface
	interface ThrowingRunnable {

		void run() throws Exception;

	}

	/**
	 * Hold Curator's connection-state thread on every state but CONNECTED until {@code until} opens;
	 * registered before the lock's own listener, it keeps the lock from hearing of connection events.
	 */
	static void blockConnectionStateThread(CuratorFramework client, CountDownLatch until) {
		client.getConnectionStateListenable().addListener((c, state) -> {
			if (state != ConnectionState.CONNECTED) {
				awaitQuietly(until, 60);
			}
		});
	}

	/** Wait for the latch up to the given seconds; whether it opened. */
	static boolean awaitQuietly(CountDownLatch latch, long seconds) {
		try {
			return latch.await(seconds, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
