package dev.zkspring.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.test.simple.SimpleTracer;

/**
 * Issue 44's overhead row: an uncontended {@code @ZkLock} in an application whose {@link ObservationRegistry}
 * carries a meter handler on a meter registry and a tracing handler, divided by the same application
 * without a registry, with raw Curator in the same run. Two rows with one handler each say where the
 * time goes.
 */
final class ObservationBenchmark {

	static final String WITHOUT = "zk-spring @ZkLock, no ObservationRegistry";

	/** Between two calls in the second table: the server is idle again when a call starts. */
	private static final Duration PAUSE = Duration.ofMillis(3);

	static final String BOTH = "zk-spring @ZkLock, registry with meter + tracing handlers";

	private final Clients clients;

	private final Harness harness;

	private final Report report;

	ObservationBenchmark(Clients clients, Harness harness, Report report) {
		this.clients = clients;
		this.harness = harness;
		this.report = report;
	}

	void run() throws Exception {
		this.report.section("Observation overhead",
				"Issue 44: the uncontended row's shape (one client per application, a key per contender, acquire then "
						+ "release) for `@ZkLock` in applications that differ only in their `ObservationRegistry` bean: "
						+ "none (zk-spring observes nothing), or one whose handlers are Micrometer's "
						+ "`DefaultMeterObservationHandler` on a `SimpleMeterRegistry` (a timer and a long task timer per "
						+ "observation) and Micrometer Tracing's `DefaultTracingObservationHandler` on the test tracer "
						+ "`SimpleTracer` (a span per observation, kept in memory; no other tracer is offline here), as "
						+ "Boot registers them with actuator and tracing. Each call makes two observations, the wait "
						+ "(`zk.lock.acquisition`) and the hold (`zk.lock.holding`). Operations are interleaved one by one "
						+ "across the contenders (the order rotating), so the machine's drift falls on all alike. "
						+ "Goal: ≤ 1.05×.");
		Map<String, Supplier<ObservationRegistry>> registries = new LinkedHashMap<>();
		registries.put(WITHOUT, null);
		registries.put(BOTH, () -> registry(true, true));
		registries.put("zk-spring @ZkLock, registry with the meter handler only", () -> registry(true, false));
		registries.put("zk-spring @ZkLock, registry with the tracing handler only", () -> registry(false, true));
		registries.put("zk-spring @ZkLock, registry with no handler", () -> registry(false, false));
		List<Contender> contenders = new ArrayList<>();
		List<AutoCloseable> closing = new ArrayList<>();
		String scenario = "Uncontended @ZkLock acquire + release, calls back to back";
		try {
			registries.forEach((name, registry) -> open(scenario, ZkSpringLocks.annotation(name, registry), contenders, closing));
			open(scenario, LockLibrary.RAW_CURATOR, contenders, closing);
			table(scenario, contenders, 0);
			table("Uncontended @ZkLock acquire + release, " + PAUSE.toMillis() + " ms between calls (not timed)",
					contenders, PAUSE.toNanos());
		}
		finally {
			for (AutoCloseable c : closing) {
				c.close();
			}
		}
		this.report.note("Back to back, a call's create reaches the server while the previous call's delete (sent, "
				+ "not awaited) is in its fsync: a create sent at once joins that fsync, one sent a few µs later waits "
				+ "for the next, so a few µs of work before the create can cost a whole fsync. With a pause between "
				+ "calls, as calls in an application usually are, the server is idle when each call starts and the "
				+ "rows differ by the observations' own cost.");
		StringBuilder alone = new StringBuilder("Where the time goes: the same two observations with no lock and no "
				+ "ZooKeeper (zk-spring's contexts and default conventions, started, stopped and the hold's scope opened "
				+ "and closed, as a `@ZkLock` call makes them), timed on one thread, per call:");
		registries.forEach((name, registry) -> {
			if (registry != null) {
				alone.append(String.format(java.util.Locale.ROOT, " %s %.1f µs;",
						name.substring(name.indexOf("registry with") + "registry with ".length()),
						ObservationCost.perCall(registry.get(), this.harness.settings().quick()) / 1_000.0));
			}
		});
		this.report.note(alone.toString().replaceAll(";$", "."));
	}

	/** Samples one operation per contender in turn, the order rotating, optionally pausing (untimed) between them. */
	private void table(String scenario, List<Contender> contenders, long pauseNanos) throws Exception {
		Settings settings = this.harness.settings();
		for (int i = 0; i < settings.warmupOps(); i++) {
			for (Contender contender : contenders) {
				contender.op();
				pause(pauseNanos);
			}
		}
		Map<String, List<Long>> all = new LinkedHashMap<>();
		Map<String, List<Double>> roundRatios = new LinkedHashMap<>();
		contenders.forEach((c) -> all.put(c.name(), new ArrayList<>()));
		contenders.forEach((c) -> roundRatios.put(c.name(), new ArrayList<>()));
		for (int round = 0; round < settings.rounds(); round++) {
			Map<String, List<Long>> samples = new LinkedHashMap<>();
			contenders.forEach((c) -> samples.put(c.name(), new ArrayList<>()));
			for (int i = 0; i < settings.opsPerRound(); i++) {
				for (int k = 0; k < contenders.size(); k++) {
					Contender contender = contenders.get((i + k) % contenders.size());
					long start = System.nanoTime();
					contender.op();
					samples.get(contender.name()).add(System.nanoTime() - start);
					pause(pauseNanos);
				}
			}
			double floor = p50(samples.get(WITHOUT));
			samples.forEach((name, nanos) -> {
				all.get(name).addAll(nanos);
				roundRatios.get(name).add(p50(nanos) / floor);
			});
		}
		Map<String, Stats> stats = new LinkedHashMap<>();
		all.forEach((name, nanos) -> stats.put(name, Stats.of(nanos.stream().mapToLong(Long::longValue).toArray())));
		this.report.latency(scenario, stats, List.of(WITHOUT, LockLibrary.RAW_CURATOR.name()));
		this.report.note(new ConfigBenchmarks.Interleaved(stats, roundRatios).spread(WITHOUT)
			.replace("floor", "no registry").replace("p50:", "p50 (the ratio's spread):"));
	}

	private static void pause(long nanos) {
		if (nanos > 0) {
			LockSupport.parkNanos(nanos);
		}
	}

	private static double p50(List<Long> nanos) {
		return nanos.stream().sorted().toList().get((nanos.size() - 1) / 2);
	}

	private void open(String scenario, LockLibrary library, List<Contender> contenders, List<AutoCloseable> closing) {
		try {
			LockLibrary.Locks locks = library.open(this.clients.connect());
			closing.add(locks);
			// a key per contender: the @ZkLock applications share one root, and their ops are interleaved one by one
			String key = "observed-" + contenders.size();
			contenders.add(LockBenchmarks.contender(library.name(), () -> locks.acquireRelease(key)));
		}
		catch (Exception ex) {
			this.report.failed(scenario, library.name(), ex);
		}
	}

	/** A registry as Boot builds one with actuator and Micrometer Tracing: both handlers see every observation. */
	private static ObservationRegistry registry(boolean meters, boolean tracing) {
		ObservationRegistry registry = ObservationRegistry.create();
		if (meters) {
			registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(new SimpleMeterRegistry()));
		}
		if (tracing) {
			registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(new SimpleTracer()));
		}
		return registry;
	}

}
