package dev.zkspring.lock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 24, item 5: a thread interrupted inside a synchronous ZooKeeper request of its acquisition gets
 * {@link ZkLockInterruptedException} with its interrupt flag set, never "ZooKeeper unavailable". Each
 * request is forced: the {@code sending} hook stops the server just before it, so the request waits for
 * the connection inside Curator or ZooKeeper, and the test interrupts the thread while it waits there.
 */
class LockInterruptTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void anInterruptInsideTheReadBehindTheCreateIsAnInterruption() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient());
		interruptedInside(jvm, "children behind the create", "i-behind", Duration.ofSeconds(30), null);
		assertFree("i-behind");
	}

	@Test
	void anInterruptInsideTheReadOfAWaiterIsAnInterruption() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient());
		LockFailoverTests.Holder other = LockFailoverTests.Holder.start(new LockTestSupport(zk.newClient()), "i-children");
		interruptedInside(jvm, "children", "i-children", Duration.ofSeconds(30), null);
		other.finish();
		assertFree("i-children");
	}

	@Test
	void anInterruptInsideTheWatchOnTheBlockerIsAnInterruption() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient());
		LockFailoverTests.Holder other = LockFailoverTests.Holder.start(new LockTestSupport(zk.newClient()), "i-watch");
		interruptedInside(jvm, "blocker watch", "i-watch", Duration.ofSeconds(30), null);
		other.finish();
		assertFree("i-watch");
	}

	@Test
	void anInterruptInsideTheDeleteOfAStrayIsAnInterruption() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient());
		// a node of this JVM's that a retried create left behind
		zk.newClient()
			.create()
			.creatingParentsIfNeeded()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath("/locks/i-strays/" + jvm.template.registry().jvmPrefix + "0-X");
		interruptedInside(jvm, "strays", "i-strays", Duration.ofSeconds(30), null);
	}

	@Test
	void anInterruptInsideTheReadOfATryOnceIsAnInterruption() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient());
		interruptedInside(jvm, "holders", "i-holders", Duration.ZERO, null);
		assertFree("i-holders");
	}

	@Test
	void anInterruptInsideTheCheckForWaitingJvmsOfALocalHandOffIsAnInterruption() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient(), 0, false);
		LockFailoverTests.Holder holder = LockFailoverTests.Holder.start(jvm, "i-waiters");
		interruptedInside(jvm, "waiters", "i-waiters", Duration.ofSeconds(30), () -> {
			await().atMost(Duration.ofSeconds(5)).until(() -> jvm.template.registry().waiting("i-waiters") == 1);
			holder.finish();
		});
		assertFree("i-waiters");
	}

	@Test
	void anInterruptInsideTheFirstCheckOfTheLockRootIsAnInterruption() throws Exception {
		CuratorFramework client = zk.newClient();
		zk.stopServer();
		LockTestSupport jvm;
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> !client.getZookeeperClient().isConnected());
			// not connected: the root is checked at the first acquisition instead of at startup
			jvm = new LockTestSupport(client);
		}
		finally {
			zk.restartServer();
		}
		await().atMost(Duration.ofSeconds(20)).until(() -> client.getZookeeperClient().isConnected());
		interruptedInside(jvm, "create", "i-create", Duration.ofSeconds(30), null);
		assertFree("i-create");
	}

	@Test
	void anInterruptDuringCuratorsSleepBeforeARetryIsAnInterruption() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient());
		// Curator's retry policy swallows the InterruptedException, sets the flag and throws the connection loss
		interruptedInside(jvm, "holders", "i-retry", Duration.ZERO, null, (caller) -> Arrays
			.stream(caller.getStackTrace())
			.anyMatch((frame) -> frame.getClassName().equals("org.apache.curator.retry.SleepingRetry")));
		assertFree("i-retry");
	}

	private static void interruptedInside(LockTestSupport jvm, String request, String key, Duration wait,
			LockTestSupport.ThrowingRunnable afterStart) throws Exception {
		interruptedInside(jvm, request, key, wait, afterStart,
				(caller) -> caller.getState() == Thread.State.WAITING || caller.getState() == Thread.State.TIMED_WAITING);
	}

	/** Acquire on a thread of its own; stop the server just before the named request; interrupt the thread inside it. */
	private static void interruptedInside(LockTestSupport jvm, String request, String key, Duration wait,
			LockTestSupport.ThrowingRunnable afterStart, Predicate<Thread> inside) throws Exception {
		AtomicBoolean stopped = new AtomicBoolean();
		CountDownLatch sending = new CountDownLatch(1);
		jvm.template.registry().hooks = new LockHooks() {
			@Override
			void sending(String sendingKey, String name) {
				if (name.equals(request) && stopped.compareAndSet(false, true)) {
					try {
						zk.stopServer();
					}
					catch (IOException ex) {
						throw new UncheckedIOException(ex);
					}
					await().atMost(Duration.ofSeconds(10)).until(() -> !jvm.client.getZookeeperClient().isConnected());
					sending.countDown();
				}
			}
		};
		AtomicReference<Throwable> thrown = new AtomicReference<>();
		AtomicBoolean flagSet = new AtomicBoolean();
		AtomicBoolean ran = new AtomicBoolean();
		Thread caller = new Thread(() -> {
			try {
				jvm.template.tryExecute(key, wait, () -> ran.getAndSet(true));
			}
			catch (Throwable ex) {
				flagSet.set(Thread.currentThread().isInterrupted());
				thrown.set(ex);
			}
		});
		caller.start();
		try {
			if (afterStart != null) {
				afterStart.run();
			}
			assertThat(sending.await(20, TimeUnit.SECONDS)).as("the hook ran before '%s'", request).isTrue();
			// the request waits for the connection now, inside Curator or ZooKeeper
			await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(1)).until(() -> inside.test(caller));
			caller.interrupt();
			caller.join(10_000);
			assertThat(caller.isAlive()).isFalse();
		}
		finally {
			jvm.template.registry().hooks = LockHooks.NONE;
			if (stopped.get()) {
				zk.restartServer();
			}
		}
		assertThat(ran).isFalse();
		assertThat(thrown.get()).as("what the interrupted acquisition threw (in '%s')", request)
			.isInstanceOf(ZkLockInterruptedException.class)
			.hasMessageContaining("'" + key + "'")
			.hasMessageNotContaining("null");
		assertThat(flagSet).as("the interrupt flag, set again").isTrue();
		await().atMost(Duration.ofSeconds(20)).until(() -> jvm.client.getZookeeperClient().isConnected());
	}

	/** Nothing of the interrupted attempt keeps the key. */
	private static void assertFree(String key) throws Exception {
		assertThat(new LockTestSupport(zk.newClient()).template.tryExecute(key, Duration.ofSeconds(15), () -> "free")
			.toOptional()).contains("free");
	}

}
