package dev.zkspring.benchmarks;

import java.lang.management.ManagementFactory;
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
import org.apache.curator.framework.CuratorFramework;

import dev.zkspring.lock.ZkLockTemplate;

/**
 * Issue 44's overhead row: an uncontended {@code @ZkLock} in an application whose {@link ObservationRegistry}
 * carries a meter handler and a tracing handler, divided by the same application without a registry, with
 * raw Curator in the same run. The registry Boot builds with the OpenTelemetry bridge is the row that counts
 * ({@link BootObservationRegistry}); the test tracer's rows, one handler at a time, say where the time goes,
 * and a second application without a registry is the control for what the order of the calls alone does.
 * After the tables, {@link ObservationGap} and {@link ObservationCost} take the gap apart.
 */
final class ObservationBenchmark {

	static final String WITHOUT = "zk-spring @ZkLock, no ObservationRegistry";

	/** Between two calls in the second table: the server is idle again when a call starts. */
	private static final Duration PAUSE = Duration.ofMillis(3);

	static final String BOTH = "zk-spring @ZkLock, registry with meter + SimpleTracer handlers";

	static final String BOOT_SAMPLED = "zk-spring @ZkLock, Boot's registry: meter + OpenTelemetry tracing, "
			+ "every trace sampled";

	static final String BOOT_DEFAULT = "zk-spring @ZkLock, Boot's registry: meter + OpenTelemetry tracing, "
			+ "Boot's default sampling (0.1)";

	/** The same application as the baseline's, at another place in the order: what the order alone does. */
	static final String TWIN = "zk-spring @ZkLock, no ObservationRegistry, a second application (control)";

	/** What the figures above say, run after run (issue 44's question: why tens of µs where a hot loop says a few). */
	private static final String GAP_EXPLAINED = "What the gap is. In the paused tables, a row's p50 above the "
			+ "baseline's matches, within a few µs, both its extra CPU time on the calling thread and the time spent "
			+ "inside the observation calls (the lines taking the gap apart): the gap is CPU spent in the handlers on "
			+ "the caller's thread, not waiting, and not garbage collection (a handful of young collections per "
			+ "table of thousands of calls, none near the p50). In the lock path those calls take 8 to 9 times "
			+ "their hot-loop cost with a tracer (about 4 times with the meter handler alone), and still do once the observation code has been compiled hot: not the JIT. "
			+ "Alone, after an idle pause or a ZooKeeper round trip, they stay within about twice their hot cost; "
			+ "after reading 8 MiB of other data they take more again: the handlers' code and data (each "
			+ "application's meter registry, tracer, span processor) are pushed out of the core's caches by what runs "
			+ "between two calls of one application (the other applications, the in-process server, the client's "
			+ "threads), and each call brings them back. An application whose other work runs between its lock calls "
			+ "pays the same, so the hot-loop figure is a floor, not the cost per call; what makes the lock path "
			+ "slower still than 8 MiB of reading is not pinned down here. The split per call site says where it is paid: "
			+ "the first observation call after the idle pause (the wait's start) and the first after the ZooKeeper "
			+ "round trip (the wait's stop) take several times as long as the same kind of call made right after "
			+ "another one (the hold's start, scope and stop), so most of the cost is bringing the handlers back "
			+ "after something else ran, once per cold stretch, not the work they do. zk-spring's own part is the no-handler "
			+ "row: nothing measurable (the lock asks the registry whether it has a handler and creates no "
			+ "observation when it has none).";

	/** Why the back-to-back table's ratios measure the order, not the observations. */
	private static final String BACK_TO_BACK_EXPLAINED = "Back to back, the ratios measure the order of the calls, "
			+ "not the observations: the control, an application identical to the baseline's at another place in the "
			+ "order, is as far above the baseline as the registries with handlers are, and the no-handler registry "
			+ "(with which zk-spring creates no observation) is too. The rotation keeps the contenders' cyclic order, "
			+ "so the baseline almost always runs right after raw Curator, whose release waits for its delete: its "
			+ "create finds the server idle. Every other zk-spring application runs right after one whose delete was "
			+ "sent without waiting and is still in the server's fsync when its create arrives, and waits for it. "
			+ "With a pause between calls the server is idle before every call, and the control sits at the baseline.";

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
						+ "none (zk-spring observes nothing), or a registry with handlers. **Boot's registry** rows: the "
						+ "registry Spring Boot 4.1 builds with actuator and Micrometer Tracing's OpenTelemetry bridge, "
						+ "with its defaults (`BootObservationRegistry`): `DefaultMeterObservationHandler` on a "
						+ "`SimpleMeterRegistry` (a timer and a long task timer per observation) wrapped in "
						+ "`TracingAwareMeterObservationHandler`, and the propagating and default tracing handlers over "
						+ "`OtelTracer` on an OpenTelemetry SDK tracer provider with a `BatchSpanProcessor` (its exporter "
						+ "drops the spans), the MDC event listeners on; sampled at Boot's default probability (0.1) or "
						+ "every trace (1.0). **SimpleTracer** rows (as measured before): the same meter handler, unwrapped, "
						+ "and `DefaultTracingObservationHandler` on Micrometer Tracing's test tracer `SimpleTracer` (a span "
						+ "per observation, kept in memory). Each call makes two observations, the wait "
						+ "(`zk.lock.acquisition`) and the hold (`zk.lock.holding`). Operations are interleaved one by one "
						+ "across the contenders (the order rotating), so the machine's drift falls on all alike. "
						+ "Goal: ≤ 1.05×.");
		List<AutoCloseable> closing = new ArrayList<>();
		Map<String, Supplier<ObservationRegistry>> registries = new LinkedHashMap<>();
		registries.put(WITHOUT, null);
		registries.put(BOOT_SAMPLED, () -> BootObservationRegistry.withOpenTelemetry(1.0, closing));
		registries.put(BOOT_DEFAULT, () -> BootObservationRegistry.withOpenTelemetry(0.1, closing));
		registries.put(BOTH, () -> registry(true, true));
		registries.put("zk-spring @ZkLock, registry with the meter handler only", () -> registry(true, false));
		registries.put("zk-spring @ZkLock, registry with the SimpleTracer handler only", () -> registry(false, true));
		registries.put("zk-spring @ZkLock, registry with no handler", () -> registry(false, false));
		registries.put(TWIN, null);
		List<Contender> contenders = new ArrayList<>();
		Map<String, ZkLockTemplate> templates = new LinkedHashMap<>();
		String scenario = "Uncontended @ZkLock acquire + release, calls back to back";
		try {
			registries.forEach((name, registry) -> open(scenario,
					ZkSpringLocks.annotation(name, registry, (template) -> templates.put(name, template)), contenders,
					closing));
			open(scenario, LockLibrary.RAW_CURATOR, contenders, closing);
			table(scenario, contenders, 0);
			ObservationGap.GcCount gc = ObservationGap.GcCount.now();
			table("Uncontended @ZkLock acquire + release, " + PAUSE.toMillis() + " ms between calls (not timed)",
					contenders, PAUSE.toNanos());
			this.report.note(BACK_TO_BACK_EXPLAINED);
			this.report.note("Garbage collection during the " + PAUSE.toMillis() + " ms table: " + gc.since() + ".");
			stamp("the gap's pass");
			new ObservationGap(this.harness.settings(), PAUSE).run("The gap taken apart: a pass of its own after the "
					+ "tables", contenders, templates, this.report);
			stamp("the observations alone");
			CuratorFramework client = this.clients.connect();
			this.report.note(ObservationCost.describe(registries, this.harness.settings().quick(), PAUSE, client));
			// the loops above ran the handlers' code tens of thousands of times: it is now compiled as in an
			// application whose other instrumentations (HTTP, JDBC, @Scheduled) keep the same handlers busy
			gc = ObservationGap.GcCount.now();
			table("Uncontended @ZkLock acquire + release, " + PAUSE.toMillis() + " ms between calls (not timed), "
					+ "after the observation code was compiled hot", contenders, PAUSE.toNanos());
			this.report.note("Garbage collection during this table: " + gc.since() + ".");
			stamp("the gap's pass, compiled hot");
			new ObservationGap(this.harness.settings(), PAUSE).run("The gap taken apart again, after this table",
					contenders, templates, this.report);
			stamp("done");
			this.report.note(GAP_EXPLAINED);
		}
		finally {
			for (AutoCloseable c : closing) {
				c.close();
			}
		}
	}

	/** Samples one operation per contender in turn, the order rotating, optionally pausing (untimed) between them. */
	private void table(String scenario, List<Contender> contenders, long pauseNanos) throws Exception {
		Settings settings = this.harness.settings();
		stamp(scenario);
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

	/** On standard output with the JVM's uptime, to set beside -Xlog:gc and -XX:+PrintCompilation lines. */
	static void stamp(String phase) {
		System.out.println("[observation] " + ManagementFactory.getRuntimeMXBean().getUptime() + " ms: " + phase);
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

	/** The SimpleTracer rows' registry: the meter handler and the tracing handler on the test tracer, unwrapped. */
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
