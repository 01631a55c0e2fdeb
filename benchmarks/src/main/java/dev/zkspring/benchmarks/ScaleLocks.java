package dev.zkspring.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;

/**
 * One lock key contended by N sessions, one thread each: the instances' {@code ZkLockTemplate}
 * against raw Curator's {@link InterProcessMutex} on the floor's N sessions, slices alternating.
 * Throughput, and the longest any one session waited for its turn (fairness).
 */
final class ScaleLocks {

	private ScaleLocks() {
	}

	static void contend(ScaleRow row, List<ScaleInstance> instances, ScaleFloor floor, Duration slice) throws Exception {
		List<Taker> ours = new ArrayList<>();
		for (ScaleInstance instance : instances) {
			ours.add(() -> {
				long[] waited = new long[1];
				long start = System.nanoTime();
				instance.locks().execute("scale-hot", Duration.ofSeconds(60), () -> {
					waited[0] = System.nanoTime() - start;
					return null;
				});
				return waited[0];
			});
		}
		List<Taker> raw = new ArrayList<>();
		for (CuratorFramework client : floor.clients()) {
			InterProcessMutex mutex = new InterProcessMutex(client, "/scale-raw/hot");
			raw.add(() -> {
				long start = System.nanoTime();
				if (!mutex.acquire(60, TimeUnit.SECONDS)) {
					throw new IllegalStateException("raw Curator waited 60 s for the key");
				}
				long waited = System.nanoTime() - start;
				mutex.release();
				return waited;
			});
		}
		double[] a = run(ours, slice.toNanos());
		double[] b = run(raw, slice.toNanos());
		double[] c = run(ours, slice.toNanos());
		double[] d = run(raw, slice.toNanos());
		row.lockOps = (a[0] + c[0]) / 2;
		row.lockMaxWaitMillis = Math.max(a[1], c[1]);
		row.rawLockOps = (b[0] + d[0]) / 2;
		row.rawLockMaxWaitMillis = Math.max(b[1], d[1]);
	}

	/** Operations per second and the longest wait in ms, each taker on a thread of its own for one slice. */
	private static double[] run(List<Taker> takers, long sliceNanos) throws Exception {
		AtomicLong ops = new AtomicLong();
		AtomicLong maxWait = new AtomicLong();
		AtomicReference<Exception> failure = new AtomicReference<>();
		CountDownLatch go = new CountDownLatch(1);
		long[] deadline = new long[1];
		List<Thread> threads = new ArrayList<>();
		for (Taker taker : takers) {
			Thread thread = new Thread(() -> {
				try {
					go.await();
					while (System.nanoTime() < deadline[0]) {
						long waited = taker.take();
						maxWait.accumulateAndGet(waited, Math::max);
						ops.incrementAndGet();
					}
				}
				catch (Exception ex) {
					failure.compareAndSet(null, ex);
				}
			}, "scale-lock");
			threads.add(thread);
			thread.start();
		}
		long begin = System.nanoTime();
		deadline[0] = begin + sliceNanos;
		go.countDown();
		for (Thread thread : threads) {
			thread.join();
		}
		if (failure.get() != null) {
			throw failure.get();
		}
		return new double[] { ops.get() / ((System.nanoTime() - begin) / 1e9), maxWait.get() / 1e6 };
	}

	/** Takes and releases the key once; returns how long it waited for it, in ns. */
	@FunctionalInterface
	private interface Taker {

		long take() throws Exception;

	}

}
