package dev.zkspring.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;

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

	/**
	 * The note on where the time goes: per registry, the two observations' cost per call in a hot loop, and
	 * with each call alone after something else ran: a pause (the CPU idle), one ZooKeeper round trip on the
	 * in-process server, or a read of {@value #POLLUTION_BYTES} bytes (the caches refilled with other data).
	 */
	static String describe(Map<String, Supplier<ObservationRegistry>> registries, boolean quick, Duration pause,
			CuratorFramework client) {
		byte[] other = new byte[POLLUTION_BYTES];
		StringBuilder text = new StringBuilder("Where the time goes: the same two observations with no lock and no "
				+ "ZooKeeper (zk-spring's contexts and default conventions, started, stopped and the hold's scope opened "
				+ "and closed, as a `@ZkLock` call makes them), timed on one thread, per call: in a hot loop / each "
				+ "call alone after a " + pause.toMillis() + " ms pause / after one ZooKeeper round trip (an exists "
				+ "on the in-process server) / after reading " + POLLUTION_BYTES / 1024 / 1024 + " MiB of other data "
				+ "(p50 of single calls, compiled hot first):");
		registries.forEach((name, registry) -> {
			if (registry != null) {
				ObservationRegistry observations = registry.get();
				text.append(String.format(Locale.ROOT, " %s %.1f / %.1f / %.1f / %.1f µs;",
						name.replace("zk-spring @ZkLock, ", ""), perCall(observations, quick) / 1_000.0,
						perCallAfter(observations, quick, () -> LockSupport.parkNanos(pause.toNanos())) / 1_000.0,
						perCallAfter(observations, quick, () -> roundTrip(client)) / 1_000.0,
						perCallAfter(observations, quick, () -> read(other)) / 1_000.0));
			}
		});
		return text.toString().replaceAll(";$", ".");
	}

	private static final int POLLUTION_BYTES = 8 * 1024 * 1024;

	private static long sink;

	private static void roundTrip(CuratorFramework client) {
		try {
			client.checkExists().forPath("/");
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static void read(byte[] other) {
		long sum = 0;
		for (int i = 0; i < other.length; i += 64) {
			sum += other[i];
		}
		sink += sum;
	}

	/** Nanoseconds per call, each call alone after {@code between}, the median; warmed up hot first. */
	static double perCallAfter(ObservationRegistry registry, boolean quick, Runnable between) {
		once(registry, quick ? 2_000 : 10_000);
		long[] calls = new long[quick ? 200 : 1_000];
		for (int i = 0; i < calls.length; i++) {
			between.run();
			long start = System.nanoTime();
			once(registry, 1);
			calls[i] = System.nanoTime() - start;
		}
		Arrays.sort(calls);
		return calls[(calls.length - 1) / 2];
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
		Arrays.sort(rounds);
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
