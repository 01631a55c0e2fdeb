package dev.zkspring.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fairness check of a local hand-off is free while the key's children watch stays silent since a
 * recent read found no other JVM: a JVM that queues fires the watch, and a notification held up on the
 * client's event thread delays the check by at most the quiet bound.
 */
class LockHandoffCheckTests {

	private static final String KEY = "handoff-check";

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final AtomicBoolean stop = new AtomicBoolean();

	private final CountDownLatch thaw = new CountDownLatch(1);

	private final List<Thread> workers = new ArrayList<>();

	@AfterEach
	void stopWorkers() throws InterruptedException {
		this.stop.set(true);
		this.thaw.countDown();
		for (Thread worker : this.workers) {
			worker.join(30_000);
		}
	}

	@Test
	void aloneTheHandOffCheckSendsNoRead() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient(), 1, false);
		jvm.template.registry().quietForNanos = TimeUnit.HOURS.toNanos(1);
		AtomicInteger waiterReads = countWaiterReads(jvm);
		AtomicInteger ops = new AtomicInteger();
		startAlternating(jvm, 2, ops, 40);
		for (Thread worker : this.workers) {
			worker.join(30_000);
		}
		// 80 holders in one turn: 79 hand-offs, a check after each (max-local-handoffs = 1), none read
		assertThat(ops).hasValue(80);
		assertThat(waiterReads).hasValue(0);
	}

	@Test
	void aJvmThatQueuesFiresTheWatchAndGetsTheKey() throws Exception {
		LockTestSupport busy = new LockTestSupport(zk.newClient(), 2, false);
		// only the watch can tell of the other JVM: a quiet read stands for an hour
		busy.template.registry().quietForNanos = TimeUnit.HOURS.toNanos(1);
		AtomicInteger waiterReads = countWaiterReads(busy);
		AtomicInteger ops = new AtomicInteger();
		startAlternating(busy, 2, ops, Integer.MAX_VALUE);
		await().atMost(Duration.ofSeconds(10)).until(() -> ops.get() > 20);
		assertThat(waiterReads).as("checks that read while alone").hasValue(0);

		LockTestSupport waiting = new LockTestSupport(zk.newClient());
		assertThat(waiting.template.tryExecute(KEY, Duration.ofSeconds(10), () -> "in").toOptional()).contains("in");
		assertThat(waiterReads.get()).as("checks that read after the watch fired").isPositive();
		assertThat(busy.template.getLostLockCount()).isZero();
	}

	@Test
	void aNotificationHeldOnTheEventThreadDelaysAWaitingJvmByAtMostTheQuietBound() throws Exception {
		CuratorFramework busyClient = zk.newClient();
		LockTestSupport busy = new LockTestSupport(busyClient, 2, false);
		busy.template.registry().quietForNanos = TimeUnit.MILLISECONDS.toNanos(300);
		AtomicInteger ops = new AtomicInteger();
		startAlternating(busy, 2, ops, Integer.MAX_VALUE);
		await().atMost(Duration.ofSeconds(10)).until(() -> ops.get() > 20);
		holdEventThread(busyClient);

		// the busy JVM never hears of this node through its watch; its lease holds for seconds more
		LockTestSupport waiting = new LockTestSupport(zk.newClient());
		long start = System.nanoTime();
		assertThat(waiting.template.tryExecute(KEY, Duration.ofSeconds(4), () -> "in").toOptional()).contains("in");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
		assertThat(busy.template.getLostLockCount()).as("the busy JVM gave the key up, it did not lose it").isZero();
	}

	private static AtomicInteger countWaiterReads(LockTestSupport jvm) {
		AtomicInteger reads = new AtomicInteger();
		jvm.template.registry().hooks = new LockHooks() {
			@Override
			void sending(String key, String request) {
				if (request.equals("waiters")) {
					reads.incrementAndGet();
				}
			}
		};
		return reads;
	}

	/**
	 * Threads that take the key in turn, each holder staying until another thread of the JVM queues, so
	 * the JVM's turn never ends and every holder after the first came by a local hand-off.
	 */
	private void startAlternating(LockTestSupport jvm, int threads, AtomicInteger ops, int opsPerThread) {
		AtomicInteger finished = new AtomicInteger();
		for (int t = 0; t < threads; t++) {
			Thread worker = new Thread(() -> {
				for (int i = 0; i < opsPerThread && !this.stop.get(); i++) {
					jvm.template.tryExecute(KEY, Duration.ofSeconds(30), () -> {
						ops.incrementAndGet();
						awaitQuietly(() -> this.stop.get() || finished.get() > 0
								|| jvm.template.registry().waiting(KEY) > 0);
						return null;
					});
				}
				finished.incrementAndGet();
			}, "alternating-" + t);
			this.workers.add(worker);
			worker.start();
		}
	}

	private static void awaitQuietly(java.util.concurrent.Callable<Boolean> condition) {
		try {
			await().atMost(Duration.ofSeconds(5)).pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(1))
				.until(condition);
		}
		catch (ConditionTimeoutException ex) {
			// the other thread is held elsewhere (the test's fault); the holder leaves
		}
	}

	/** Hold the client's event thread in a watcher until the test ends: no watch notification is delivered. */
	private void holdEventThread(CuratorFramework client) throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		client.checkExists().usingWatcher((Watcher) (event) -> {
			held.countDown();
			LockTestSupport.awaitQuietly(this.thaw, 60);
		}).forPath("/handoff-check-hold");
		client.create().forPath("/handoff-check-hold");
		assertThat(held.await(10, TimeUnit.SECONDS)).as("the event thread is held").isTrue();
	}

}
