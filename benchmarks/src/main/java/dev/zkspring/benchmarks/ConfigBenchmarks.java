package dev.zkspring.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;

/**
 * Config propagation: from {@code setData} on the writer's own session to the new value being visible
 * where the application reads it. Each contender watches znodes of its own on the same server.
 */
final class ConfigBenchmarks {

	static final String FLOOR = "bare CuratorCache listener (floor)";

	private final Clients clients;

	private final Harness harness;

	private final Report report;

	private final List<PropagationContender> extra;

	ConfigBenchmarks(Clients clients, Harness harness, Report report, List<PropagationContender> extra) {
		this.clients = clients;
		this.harness = harness;
		this.report = report;
		this.extra = extra;
	}

	void run() throws Exception {
		this.report.section("Config propagation", "A writer with a session of its own calls `setData`; the sample "
				+ "ends when the new value is visible where the application reads it (polled every 50 µs).");
		CuratorFramework writer = this.clients.connect();
		List<Contender> contenders = new ArrayList<>();
		contenders.add(floor(writer));
		for (PropagationContender contender : this.extra) {
			try {
				contender.start(this.clients.connectString(), writer);
				contenders.add(contender.asContender(writer));
			}
			catch (Throwable ex) {
				this.report.failed("Config propagation", contender.name(), ex);
			}
		}
		Interleaved measured = interleaved(contenders, this.harness.settings());
		this.report.latency("setData → value visible", measured.stats(), List.of(FLOOR));
		this.report.note(measured.spread(FLOOR));
		for (PropagationContender contender : this.extra) {
			contender.close();
		}
	}

	private Contender floor(CuratorFramework writer) throws Exception {
		String path = "/bench-floor/value";
		writer.create().orSetData().creatingParentsIfNeeded().forPath(path, bytes("0"));
		CuratorFramework reader = this.clients.connect();
		CuratorCache cache = CuratorCache.build(reader, "/bench-floor");
		Holder seen = new Holder();
		cache.listenable().addListener((type, before, after) -> {
			if (after != null && after.getPath().equals(path)) {
				seen.value = new String(after.getData(), StandardCharsets.UTF_8);
			}
		});
		cache.start();
		return propagation(FLOOR, (value) -> writer.setData().forPath(path, bytes(value)), () -> seen.value);
	}

	/**
	 * Samples taken one operation per contender in turn (the order rotating each time), so machine noise
	 * falls on the floor and the contenders alike; per round, each contender's p50 ÷ the floor's p50.
	 */
	static Interleaved interleaved(List<Contender> contenders, Settings settings) throws Exception {
		for (int i = 0; i < settings.warmupOps(); i++) {
			for (Contender contender : contenders) {
				contender.op();
			}
		}
		Map<String, List<Long>> all = new LinkedHashMap<>();
		Map<String, List<Double>> roundRatios = new LinkedHashMap<>();
		contenders.forEach((c) -> all.put(c.name(), new ArrayList<>()));
		contenders.forEach((c) -> roundRatios.put(c.name(), new ArrayList<>()));
		for (int round = 0; round < settings.rounds(); round++) {
			Map<String, List<Long>> samples = new LinkedHashMap<>();
			contenders.forEach((c) -> samples.put(c.name(), new ArrayList<>()));
			long until = System.nanoTime() + settings.roundBudget().toNanos() * contenders.size();
			for (int i = 0; i < settings.opsPerRound() && (i == 0 || System.nanoTime() < until); i++) {
				for (int k = 0; k < contenders.size(); k++) {
					Contender contender = contenders.get((i + k) % contenders.size());
					long start = System.nanoTime();
					contender.op();
					samples.get(contender.name()).add(System.nanoTime() - start);
				}
			}
			double floor = p50(samples.get(contenders.get(0).name()));
			samples.forEach((name, nanos) -> {
				all.get(name).addAll(nanos);
				roundRatios.get(name).add(p50(nanos) / floor);
			});
		}
		Map<String, Stats> stats = new LinkedHashMap<>();
		all.forEach((name, nanos) -> stats.put(name, Stats.of(nanos.stream().mapToLong(Long::longValue).toArray())));
		return new Interleaved(stats, roundRatios);
	}

	private static double p50(List<Long> nanos) {
		return nanos.stream().sorted().toList().get((nanos.size() - 1) / 2);
	}

	/** The samples of an interleaved measurement, and each round's ratio to the floor. */
	record Interleaved(Map<String, Stats> stats, Map<String, List<Double>> roundRatios) {

		String spread(String floor) {
			StringBuilder text = new StringBuilder("Per round (" + roundRatios.get(floor).size()
					+ " rounds, operations interleaved one by one), p50 ÷ floor p50:");
			this.roundRatios.forEach((name, ratios) -> {
				if (!name.equals(floor)) {
					List<Double> sorted = ratios.stream().sorted().toList();
					text.append(String.format(java.util.Locale.ROOT, " %s median %.2f×, min %.2f×, max %.2f×;", name,
							sorted.get(sorted.size() / 2), sorted.get(0), sorted.get(sorted.size() - 1)));
				}
			});
			return text.toString().replaceAll(";$", ".");
		}

	}

	/** A contender whose operation writes a fresh value and waits until the reader sees it. */
	static Contender propagation(String name, Writer writer, Supplier<String> reader) {
		AtomicLong counter = new AtomicLong();
		return LockBenchmarks.contender(name, () -> {
			String value = String.valueOf(counter.incrementAndGet());
			writer.write(value);
			awaitValue(name, reader, value);
		});
	}

	/** Writes a value the way the contender stores it (a raw znode, a JSON document). */
	@FunctionalInterface
	interface Writer {

		void write(String value) throws Exception;

	}

	static void awaitValue(String name, Supplier<String> reader, String expected) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!expected.equals(reader.get())) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(name + " did not see the new value within 30 s");
			}
			TimeUnit.MICROSECONDS.sleep(50);
		}
	}

	static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	/** A config library measured against the floor. */
	interface PropagationContender extends AutoCloseable {

		String name();

		void start(String connectString, CuratorFramework writer) throws Exception;

		Contender asContender(CuratorFramework writer);

		@Override
		void close();

	}

	private static final class Holder {

		volatile String value;

	}

}
