package dev.zkspring.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A 3-node ensemble loses its leader while two JVMs contend for one key. */
class LockEnsembleFailoverTests {

	private static final int BATCH = 100;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.ensemble();

	@Test
	void losingTheEnsembleLeaderMidRunCausesNoOverlapAndWorkContinues() throws Exception {
		MutualExclusionContractTests.Counter counter = new MutualExclusionContractTests.Counter();
		List<LockTestSupport> jvms = List.of(new LockTestSupport(zk.newClient()), new LockTestSupport(zk.newClient()));
		AtomicInteger successes = new AtomicInteger();
		AtomicInteger failures = new AtomicInteger();
		AtomicBoolean stop = new AtomicBoolean();
		ExecutorService executor = Executors.newFixedThreadPool(4);
		List<Future<?>> futures = new ArrayList<>();
		try {
			for (LockTestSupport jvm : jvms) {
				for (int t = 0; t < 2; t++) {
					futures.add(executor.submit(() -> {
						while (!stop.get()) {
							try {
								jvm.template.execute("ensemble", Duration.ofSeconds(5), counter::increment);
								successes.incrementAndGet();
							}
							catch (ZkLockException ex) {
								// busy or unavailable while the ensemble elects a new leader: try again
								failures.incrementAndGet();
							}
						}
						return null;
					}));
				}
			}
			await().atMost(Duration.ofSeconds(30)).until(() -> successes.get() >= BATCH);
			zk.killLeader();
			int afterKill = successes.get();
			await().atMost(Duration.ofSeconds(60)).until(() -> successes.get() >= afterKill + BATCH);
		}
		finally {
			stop.set(true);
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
			executor.shutdownNow();
		}
		assertThat(counter.overlaps.get()).isZero();
		assertThat(counter.value).isEqualTo(successes.get());
	}

}
