package dev.zkspring.benchmarks;

import java.time.Duration;

/**
 * How much to measure: the full run, or the quick smoke check. A contender stops a latency round
 * early once it has used the round's time budget, so a slow peer yields fewer samples, not a longer run.
 */
record Settings(boolean quick, int warmupOps, int rounds, int opsPerRound, Duration roundBudget,
		Duration throughputSlice, int handovers) {

	static Settings fullRun() {
		return new Settings(false, 300, 10, 100, Duration.ofSeconds(3), Duration.ofSeconds(2), 30);
	}

	static Settings quickRun() {
		return new Settings(true, 50, 3, 30, Duration.ofMillis(400), Duration.ofMillis(500), 5);
	}

}
