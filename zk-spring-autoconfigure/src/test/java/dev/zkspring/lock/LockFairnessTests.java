package dev.zkspring.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Threads of one JVM hand the key to each other without ZooKeeper, but a waiting JVM gets it after at
 * most {@code zk.lock.max-local-handoffs} further local holders.
 */
class LockFairnessTests {

	private static final int MAX_LOCAL_HANDOFFS = 3;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void aWaitingJvmGetsTheKeyAfterAtMostTheBoundOfFurtherLocalHolders() throws Exception {
		CuratorFramework busyClient = zk.newClient();
		LockTestSupport busy = new LockTestSupport(busyClient, MAX_LOCAL_HANDOFFS, false);
		LockTestSupport waiting = new LockTestSupport(zk.newClient());
		List<Boolean> localHoldersSeeingAWaiter = new CopyOnWriteArrayList<>();
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService executor = Executors.newFixedThreadPool(4);
		List<Future<?>> futures = new ArrayList<>();
		try {
			for (int t = 0; t < 4; t++) {
				futures.add(executor.submit(() -> {
					while (!stop.get()) {
						busy.template.execute("fair", Duration.ofSeconds(30), () -> {
							// our JVM has exactly one node; a second one is the waiting JVM's
							localHoldersSeeingAWaiter.add(busyClient.getChildren().forPath("/locks/fair").size() > 1);
							LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5)); // the holder's work
							return null;
						});
					}
					return null;
				}));
			}
			await().atMost(Duration.ofSeconds(10)).until(() -> localHoldersSeeingAWaiter.size() > 10);
			for (int round = 0; round < 3; round++) {
				long start = System.nanoTime();
				int seenBefore = localHoldersSeeingAWaiter.size();
				long overtakers = waiting.template.execute("fair", Duration.ofSeconds(10), () -> localHoldersSeeingAWaiter
					.subList(seenBefore, localHoldersSeeingAWaiter.size())
					.stream()
					.filter(Boolean::booleanValue)
					.count());
				// one more than the bound: a holder granted just before our node appeared may look after it did
				assertThat(overtakers).isLessThanOrEqualTo(MAX_LOCAL_HANDOFFS + 1);
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
			}
			assertThat(localHoldersSeeingAWaiter).contains(false);
		}
		finally {
			stop.set(true);
			for (Future<?> future : futures) {
				future.get(30, TimeUnit.SECONDS);
			}
			executor.shutdownNow();
		}
	}


	@Test
	void withNoLocalHandOffsAllowedHoldersStillEnterAndHandOnAfterEachCheck() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient(), 0, false);
		List<String> entries = new CopyOnWriteArrayList<>();
		// zk.lock.max-local-handoffs=0 once admitted nobody: each check found no waiting JVM and checked again
		LockTestSupport.holdWhile(jvm, ZkLock.Mode.MUTEX, "zero", () -> {
			entries.add("first");
			Thread second = new Thread(() -> jvm.template.execute("zero", Duration.ofSeconds(5), () -> entries.add("second")));
			second.start();
			await().atMost(Duration.ofSeconds(5)).until(() -> jvm.template.registry().waiting("zero") == 1);
			entries.add("left");
		});
		// the second thread enters after the holder leaves, by a hand-off checked with one read
		await().atMost(Duration.ofSeconds(10)).until(() -> entries.size() == 3);
		assertThat(entries).containsExactly("first", "left", "second");
	}

}
