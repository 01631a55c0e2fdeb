package dev.zkspring.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs contenders round-robin, with the starting contender rotating each round, so drift in the
 * machine or the server (GC, snapshots, page cache) falls on every contender alike.
 */
final class Harness {

	private final Settings settings;

	Harness(Settings settings) {
		this.settings = settings;
	}

	Settings settings() {
		return this.settings;
	}

	/** Time each operation on one thread. */
	Map<String, Stats> latency(List<? extends Contender> contenders) throws Exception {
		long budget = this.settings.roundBudget().toNanos();
		for (Contender contender : contenders) {
			long until = System.nanoTime() + budget;
			for (int i = 0; i < this.settings.warmupOps() && System.nanoTime() < until; i++) {
				contender.op();
			}
		}
		Map<String, List<Long>> samples = new LinkedHashMap<>();
		contenders.forEach((contender) -> samples.put(contender.name(), new ArrayList<>()));
		for (int round = 0; round < this.settings.rounds(); round++) {
			for (Contender contender : rotated(contenders, round)) {
				List<Long> into = samples.get(contender.name());
				long until = System.nanoTime() + budget;
				for (int i = 0; i < this.settings.opsPerRound() && (i == 0 || System.nanoTime() < until); i++) {
					long start = System.nanoTime();
					contender.op();
					into.add(System.nanoTime() - start);
				}
			}
		}
		Map<String, Stats> stats = new LinkedHashMap<>();
		samples.forEach((name, nanos) -> stats.put(name, Stats.of(nanos.stream().mapToLong(Long::longValue).toArray())));
		return stats;
	}

	/** Operations per second with the given number of threads, median over rounds of one slice each. */
	Map<String, Double> throughput(List<? extends Contender> contenders, int threads) throws Exception {
		for (Contender contender : contenders) {
			run(contender, threads, this.settings.throughputSlice().toNanos() / 2);
		}
		Map<String, List<Double>> rates = new LinkedHashMap<>();
		contenders.forEach((contender) -> rates.put(contender.name(), new ArrayList<>()));
		for (int round = 0; round < this.settings.rounds(); round++) {
			for (Contender contender : rotated(contenders, round)) {
				rates.get(contender.name()).add(run(contender, threads, this.settings.throughputSlice().toNanos()));
			}
		}
		Map<String, Double> medians = new LinkedHashMap<>();
		rates.forEach((name, values) -> medians.put(name, values.stream().sorted().toList().get(values.size() / 2)));
		return medians;
	}

	private static double run(Contender contender, int threads, long sliceNanos) throws Exception {
		AtomicLong ops = new AtomicLong();
		AtomicReference<Exception> failure = new AtomicReference<>();
		CountDownLatch start = new CountDownLatch(1);
		List<Thread> workers = new ArrayList<>();
		long[] deadline = new long[1];
		for (int t = 0; t < threads; t++) {
			Thread worker = new Thread(() -> {
				try {
					start.await();
					while (System.nanoTime() < deadline[0]) {
						contender.op();
						ops.incrementAndGet();
					}
				}
				catch (Exception ex) {
					failure.compareAndSet(null, ex);
				}
			}, "bench-" + t);
			workers.add(worker);
			worker.start();
		}
		long begin = System.nanoTime();
		deadline[0] = begin + sliceNanos;
		start.countDown();
		for (Thread worker : workers) {
			worker.join();
		}
		if (failure.get() != null) {
			throw failure.get();
		}
		return ops.get() / ((System.nanoTime() - begin) / 1e9);
	}

	private static <T> List<T> rotated(List<T> items, int by) {
		List<T> rotated = new ArrayList<>(items.size());
		for (int i = 0; i < items.size(); i++) {
			rotated.add(items.get((i + by) % items.size()));
		}
		return rotated;
	}

}
