package dev.zkspring.benchmarks;

import java.util.Arrays;

/** Latency percentiles in microseconds, from samples in nanoseconds. */
record Stats(int count, double p50, double p99, double max) {

	static Stats of(long[] nanos) {
		long[] sorted = nanos.clone();
		Arrays.sort(sorted);
		return new Stats(sorted.length, micros(percentile(sorted, 0.50)), micros(percentile(sorted, 0.99)),
				micros(sorted[sorted.length - 1]));
	}

	private static long percentile(long[] sorted, double fraction) {
		int index = (int) Math.ceil(fraction * sorted.length) - 1;
		return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
	}

	private static double micros(long nanos) {
		return nanos / 1_000.0;
	}

}
