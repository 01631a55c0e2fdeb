package dev.zkspring.lock;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** What a holder and a caller see when the session expires or ZooKeeper goes away. */
class LockFailoverTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void lockHolderLearnsItLostTheLockWhenSessionExpiresAndAnotherJvmThenAcquires() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		LockTestSupport other = new LockTestSupport(zk.newClient());
		Holder holder = Holder.start(jvm, "expiring");
		ZooKeeperExtension.expireSession(client);
		await().atMost(Duration.ofSeconds(10)).until(() -> !holder.context.isHeld());
		await().atMost(Duration.ofSeconds(10)).until(() -> !jvm.lostEvents().isEmpty());
		ZkLockLostEvent event = jvm.lostEvents().get(0);
		assertThat(event.getKey()).isEqualTo("expiring");
		assertThat(event.getPath()).isEqualTo("/locks/expiring");
		assertThat(jvm.template.getLostLockCount()).isPositive();
		assertThatExceptionOfType(ZkLockLostException.class).isThrownBy(holder.context::assertHeld)
			.withMessageContaining("'expiring'");
		assertThat(other.template.tryExecute("expiring", Duration.ofSeconds(10), () -> "taken over").toOptional()).contains(
				"taken over");
		holder.finish();
		assertThat(jvm.template.tryExecute("expiring", Duration.ofSeconds(10), () -> "again").toOptional()).contains("again");
	}

	@Test
	void suspendedConnectionPutsTheLockInDoubtAtOnceAndCallersGetUnavailableWithinTheConnectionTimeout()
			throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient());
		Holder holder = Holder.start(jvm, "suspended");
		try {
			zk.stopServer();
			await().atMost(Duration.ofSeconds(5)).until(() -> !holder.context.isHeld());
			// the hold is marked first; the event is told after, from the template's own thread
			await().atMost(Duration.ofSeconds(5)).until(() -> !jvm.lostEvents().isEmpty());
			assertThat(jvm.lostEvents()).singleElement().satisfies((event) -> {
				assertThat(event.getReason()).isEqualTo(ZkLockLostEvent.Reason.SUSPENDED);
				assertThat(event.toString()).contains("/locks/suspended");
			});
			long start = System.nanoTime();
			assertThatExceptionOfType(ZkLockUnavailableException.class)
				.isThrownBy(() -> jvm.template.execute("other-key", Duration.ofSeconds(60), () -> "never"))
				.withMessageContaining("not connected");
			// the test clients' connection timeout is 5 s; the wait of 60 s must not be waited out
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(7));
			start = System.nanoTime();
			assertThatExceptionOfType(ZkLockUnavailableException.class)
				.isThrownBy(() -> jvm.template.execute("other-key", Duration.ZERO, () -> "never"));
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(1));
		}
		finally {
			zk.restartServer();
		}
		holder.finish();
		assertThat(jvm.template.tryExecute("suspended", Duration.ofSeconds(15), () -> "after restart").toOptional())
			.contains("after restart");
	}

	@Test
	void holderIsInterruptedOnLossWhenConfigured() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client, 16, true);
		AtomicBoolean interrupted = new AtomicBoolean();
		CountDownLatch held = new CountDownLatch(1);
		Thread thread = new Thread(() -> jvm.template.execute("interruptible", Duration.ofSeconds(5), () -> {
			held.countDown();
			try {
				Thread.sleep(30_000);
			}
			catch (InterruptedException ex) {
				interrupted.set(true);
			}
			return null;
		}));
		thread.start();
		assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
		ZooKeeperExtension.expireSession(client);
		await().atMost(Duration.ofSeconds(10)).untilTrue(interrupted);
		thread.join(10_000);
	}

	/** Holds a key on its own thread until told to finish. */
	static final class Holder {

		final ZkLockContext context;

		private final CountDownLatch done;

		private final Thread thread;

		private Holder(ZkLockContext context, CountDownLatch done, Thread thread) {
			this.context = context;
			this.done = done;
			this.thread = thread;
		}

		static Holder start(LockTestSupport jvm, String key) throws InterruptedException {
			AtomicReference<ZkLockContext> context = new AtomicReference<>();
			CountDownLatch held = new CountDownLatch(1);
			CountDownLatch done = new CountDownLatch(1);
			Thread thread = new Thread(() -> jvm.template.execute(key, Duration.ofSeconds(5), () -> {
				context.set(ZkLockContext.current());
				held.countDown();
				return done.await(60, TimeUnit.SECONDS);
			}));
			thread.start();
			assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(context.get().isHeld()).isTrue();
			return new Holder(context.get(), done, thread);
		}

		void finish() throws InterruptedException {
			this.done.countDown();
			this.thread.join(20_000);
			assertThat(this.thread.isAlive()).isFalse();
		}

	}

}
