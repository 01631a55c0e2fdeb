package dev.zkspring.autoconfigure;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.LazyInitializationBeanFactoryPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.client.ZkConnectionStateChangedEvent;
import dev.zkspring.client.ZkConnectionStateEventPublisher;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A connection-state change while the context is still creating its beans: published from Curator's
 * thread, it made the context create listener beans there, racing the starting thread (CI saw the crash
 * detector's own startup error replaced by "Requested bean is currently in creation").
 */
@ExtendWith(OutputCaptureExtension.class)
class ZkConnectionStateEventsAtStartupTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void aChangeDuringStartupReachesListenersInOrderOnTheStartingThreadOnceTheBeansExist() {
		Thread starting = Thread.currentThread();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withUserConfiguration(SessionLostWhileStarting.class)
			.withPropertyValues(zk.connectProperty())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				Recorder recorder = context.getBean(Recorder.class);
				assertThat(recorder.createdOn).isSameAs(starting);
				assertThat(recorder.states).containsSubsequence(ConnectionState.LOST, ConnectionState.RECONNECTED);
				assertThat(recorder.threads).containsOnly(starting);
			});
	}

	@Test
	void aChangeAfterStartupIsPublishedAtOnceFromCuratorsThread() throws Exception {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withBean(Recorder.class)
			.withPropertyValues(zk.connectProperty())
			.run((context) -> {
				Recorder recorder = context.getBean(Recorder.class);
				int before = recorder.states.size();
				awaitReconnectAfterExpiry(context.getBean(CuratorFramework.class));
				// Curator tells its listeners in no set order: the publisher may hear RECONNECTED after the witness
				await().atMost(Duration.ofSeconds(10))
					.untilAsserted(() -> {
						List<ConnectionState> states = List.copyOf(recorder.states);
						assertThat(states.subList(before, states.size()))
							.containsSubsequence(ConnectionState.LOST, ConnectionState.RECONNECTED);
					});
				List<Thread> threads = List.copyOf(recorder.threads);
				assertThat(threads.subList(before, threads.size()))
					.allSatisfy((thread) -> assertThat(thread.getName()).startsWith("Curator-ConnectionStateManager"));
			});
	}

	@Test
	void aListenerFailingOnAHeldChangeIsReportedAndDoesNotStopTheStartup(CapturedOutput output) {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withUserConfiguration(SessionLostWhileStarting.class)
			.withBean("failing", ApplicationListener.class, () -> (ApplicationListener<ZkConnectionStateChangedEvent>) (
					event) -> {
				throw new IllegalStateException("listener failed on " + event.getState());
			})
			.withPropertyValues(zk.connectProperty())
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("(held while the context started) failed")
					.contains("listener failed on LOST");
			});
	}

	/**
	 * Boot never makes a {@code SmartInitializingSingleton} lazy, so with lazy initialization the publisher is
	 * still made at startup and stops holding once the singletons exist; were it made on first use, it would
	 * hold every change for good.
	 */
	@Test
	void withLazyInitializationChangesAfterStartupArePublished() throws Exception {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withInitializer((context) -> context.addBeanFactoryPostProcessor(new LazyInitializationBeanFactoryPostProcessor()))
			.withBean(Recorder.class)
			.withPropertyValues(zk.connectProperty())
			.run((context) -> {
				assertThat(context.getBeanFactory().containsSingleton("zkConnectionStateEventPublisher")).isTrue();
				awaitReconnectAfterExpiry(context.getBean(CuratorFramework.class));
				Recorder recorder = context.getBean(Recorder.class);
				await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(recorder.states)
					.containsSubsequence(ConnectionState.LOST, ConnectionState.RECONNECTED));
			});
	}

	/**
	 * Curator delivers to its listeners in order on one thread, so once a listener added after the
	 * publisher's has seen RECONNECTED, the publisher has handled LOST and RECONNECTED.
	 */
	static void awaitReconnectAfterExpiry(CuratorFramework client) throws Exception {
		CountDownLatch reconnected = new CountDownLatch(1);
		ConnectionStateListener witness = (c, state) -> {
			if (state == ConnectionState.RECONNECTED) {
				reconnected.countDown();
			}
		};
		client.getConnectionStateListenable().addListener(witness);
		try {
			ZooKeeperExtension.injectSessionExpiration(client);
			assertThat(reconnected.await(20, TimeUnit.SECONDS)).as("reconnected after the session expired").isTrue();
		}
		finally {
			client.getConnectionStateListenable().removeListener(witness);
		}
	}

	/**
	 * Whether the publisher holds a change to this state (read under its lock: it keeps no accessor); true for
	 * a publisher that holds nothing, which then has heard the change already or published it on Curator's thread.
	 */
	static boolean holds(ZkConnectionStateEventPublisher publisher, ConnectionState state) throws Exception {
		Field lock;
		Field held;
		try {
			lock = ZkConnectionStateEventPublisher.class.getDeclaredField("lock");
			held = ZkConnectionStateEventPublisher.class.getDeclaredField("held");
		}
		catch (NoSuchFieldException ex) {
			return true;
		}
		lock.setAccessible(true);
		held.setAccessible(true);
		synchronized (lock.get(publisher)) {
			Queue<?> events = (Queue<?>) held.get(publisher);
			return events != null && events.stream()
				.anyMatch((event) -> ((ZkConnectionStateChangedEvent) event).getState() == state);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class SessionLostWhileStarting {

		/** Created before the recorder: the session is lost and regained while this bean is made. */
		@Bean
		String sessionLostWhileStarting(CuratorFramework client, ZkConnectionStateEventPublisher publisher)
				throws Exception {
			awaitReconnectAfterExpiry(client);
			// Curator tells its listeners in no set order: the publisher may hear RECONNECTED after the witness
			await().atMost(Duration.ofSeconds(10)).until(() -> holds(publisher, ConnectionState.RECONNECTED));
			return "lost and regained";
		}

		@Bean
		Recorder recorder() {
			return new Recorder();
		}

	}

	static class Recorder implements ApplicationListener<ZkConnectionStateChangedEvent> {

		final Thread createdOn = Thread.currentThread();

		final List<ConnectionState> states = new CopyOnWriteArrayList<>();

		final List<Thread> threads = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ZkConnectionStateChangedEvent event) {
			this.threads.add(Thread.currentThread());
			this.states.add(event.getState());
		}

	}

}
