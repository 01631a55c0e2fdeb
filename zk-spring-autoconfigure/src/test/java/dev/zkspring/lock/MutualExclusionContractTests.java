package dev.zkspring.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lock's contract: threads of several JVMs (clients with their own sessions) increment a plain
 * counter under the lock; the count is exact and no two bodies ever overlap.
 */
class MutualExclusionContractTests {

	private static final int JVMS = 3;

	private static final int THREADS_PER_JVM = 4;

	private static final int INCREMENTS = 2_000;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@ParameterizedTest
	@EnumSource(value = ZkLock.Mode.class, names = { "MUTEX", "WRITE" })
	void threadsOfSeveralJvmsNeverOverlapAndLoseNoIncrement(ZkLock.Mode mode) throws Exception {
		Counter counter = new Counter();
		List<LockTestSupport> jvms = new ArrayList<>();
		for (int i = 0; i < JVMS; i++) {
			jvms.add(new LockTestSupport(zk.newClient()));
		}
		ExecutorService executor = Executors.newFixedThreadPool(JVMS * THREADS_PER_JVM);
		try {
			AtomicInteger remaining = new AtomicInteger(INCREMENTS);
			List<Future<?>> futures = new ArrayList<>();
			for (LockTestSupport jvm : jvms) {
				for (int t = 0; t < THREADS_PER_JVM; t++) {
					futures.add(executor.submit(() -> {
						while (remaining.getAndDecrement() > 0) {
							jvm.template.execute("contract", mode, Duration.ofSeconds(30), counter::increment);
						}
						return null;
					}));
				}
			}
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(counter.overlaps.get()).isZero();
		assertThat(counter.value).isEqualTo(INCREMENTS);
	}

	@Test
	void readersAndWritersOfSeveralJvmsNeverOverlapAndReadersDoShare() throws Exception {
		Counter counter = new Counter();
		AtomicInteger readersInside = new AtomicInteger();
		AtomicInteger maxReadersTogether = new AtomicInteger();
		AtomicInteger readerSawWriter = new AtomicInteger();
		List<LockTestSupport> jvms = new ArrayList<>();
		for (int i = 0; i < JVMS; i++) {
			jvms.add(new LockTestSupport(zk.newClient()));
		}
		ExecutorService executor = Executors.newFixedThreadPool(JVMS * THREADS_PER_JVM);
		try {
			AtomicInteger remaining = new AtomicInteger(INCREMENTS / 2);
			List<Future<?>> futures = new ArrayList<>();
			for (LockTestSupport jvm : jvms) {
				for (int t = 0; t < THREADS_PER_JVM; t++) {
					boolean writer = t % 2 == 0;
					futures.add(executor.submit(() -> {
						while (remaining.getAndDecrement() > 0) {
							if (writer) {
								jvm.template.execute("read-write", ZkLock.Mode.WRITE, Duration.ofSeconds(30), () -> {
									if (readersInside.get() > 0) {
										counter.overlaps.incrementAndGet();
									}
									return counter.increment();
								});
							}
							else {
								jvm.template.execute("read-write", ZkLock.Mode.READ, Duration.ofSeconds(30), () -> {
									int together = readersInside.incrementAndGet();
									maxReadersTogether.accumulateAndGet(together, Math::max);
									if (counter.inside.get() > 0) {
										readerSawWriter.incrementAndGet();
									}
									Thread.yield();
									return readersInside.decrementAndGet();
								});
							}
						}
						return null;
					}));
				}
			}
			for (Future<?> future : futures) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(counter.overlaps.get()).isZero();
		assertThat(readerSawWriter.get()).isZero();
		assertThat(counter.value).isPositive();
		assertThat(maxReadersTogether.get()).isGreaterThan(1);
	}

	/** A deliberately racy counter with an overlap detector. */
	static final class Counter {

		final AtomicInteger inside = new AtomicInteger();

		final AtomicInteger overlaps = new AtomicInteger();

		int value;

		Integer increment() {
			if (this.inside.incrementAndGet() != 1) {
				this.overlaps.incrementAndGet();
			}
			int read = this.value;
			Thread.yield();
			this.value = read + 1;
			this.inside.decrementAndGet();
			return read;
		}

	}

}
