package dev.zkspring.benchmarks;

import java.time.Duration;
import java.util.List;

/**
 * How much the scale run measures: the fleet sizes, the fan-out samples per size, the idle window
 * and the lock slices. The quick form (N ≤ 10) is the smoke check CI can afford.
 */
record ScaleSettings(boolean quick, List<Integer> sizes, Duration idleWindow, Duration lockSlice) {

	static ScaleSettings full(List<Integer> sizes) {
		return new ScaleSettings(false, sizes, Duration.ofSeconds(6), Duration.ofSeconds(2));
	}

	static ScaleSettings quickRun() {
		return new ScaleSettings(true, List.of(1, 10), Duration.ofSeconds(2), Duration.ofMillis(500));
	}

	/** Fewer samples as N grows: each sample of a large fleet costs N refreshes. */
	int fanOutSamples(int n) {
		if (this.quick) {
			return 5;
		}
		return (n <= 10) ? 40 : (n <= 50) ? 25 : (n <= 200) ? 15 : 8;
	}

}
