package dev.zkspring.benchmarks;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;

import dev.zkspring.observation.DefaultZkLockAcquisitionConvention;
import dev.zkspring.observation.DefaultZkLockHoldConvention;
import dev.zkspring.observation.ZkLockAcquisitionContext;
import dev.zkspring.observation.ZkLockHoldContext;

/**
 * The CPU cost of the two observations a {@code @ZkLock} call makes, with nothing else around them: what
 * the handlers of a registry add to each lock call, apart from ZooKeeper's round trips.
 */
final class ObservationCost {

	private static final DefaultZkLockAcquisitionConvention ACQUISITION = new DefaultZkLockAcquisitionConvention();

	private static final DefaultZkLockHoldConvention HOLD = new DefaultZkLockHoldConvention();

	private ObservationCost() {
	}

	/** Nanoseconds per call, the median of rounds. */
	static double perCall(ObservationRegistry registry, boolean quick) {
		// few enough that the test tracer, which keeps every span in memory, does not fill the heap
		int calls = quick ? 2_000 : 10_000;
		once(registry, calls);
		double[] rounds = new double[5];
		for (int i = 0; i < rounds.length; i++) {
			long start = System.nanoTime();
			once(registry, calls);
			rounds[i] = (System.nanoTime() - start) / (double) calls;
		}
		java.util.Arrays.sort(rounds);
		return rounds[rounds.length / 2];
	}

	private static void once(ObservationRegistry registry, int calls) {
		for (int i = 0; i < calls; i++) {
			ZkLockAcquisitionContext waiting = new ZkLockAcquisitionContext("Guarded.run", "WRITE");
			Observation acquisition = Observation.createNotStarted(null, ACQUISITION, () -> waiting, registry).start();
			waiting.setOutcome("acquired");
			acquisition.stop();
			ZkLockHoldContext holding = new ZkLockHoldContext("Guarded.run", "WRITE");
			Observation hold = Observation.createNotStarted(null, HOLD, () -> holding, registry).start();
			try (Observation.Scope scope = hold.openScope()) {
				holding.setOutcome("released");
			}
			hold.stop();
		}
	}

}
