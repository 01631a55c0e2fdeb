package dev.zkspring.benchmarks;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import dev.zkspring.lock.ZkLockTemplate;

/**
 * Issue 44's open question: the observations cost a few µs of CPU in a hot loop, yet the rows' p50 differ
 * by several times that. A pass of its own, after the tables and in their shape (interleaved, paused), that
 * takes each call apart: wall time, the caller thread's CPU time, and the time spent inside the observation
 * calls where the lock path makes them ({@link ObservationProbe}), in all and per call site.
 */
final class ObservationGap {

	private final Settings settings;

	private final Duration pause;

	ObservationGap(Settings settings, Duration pause) {
		this.settings = settings;
		this.pause = pause;
	}

	void run(String label, List<Contender> contenders, Map<String, ZkLockTemplate> templates, Report report)
			throws Exception {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		Map<String, ObservationProbe> probes = new LinkedHashMap<>();
		templates.forEach((name, template) -> probes.put(name, ObservationProbe.install(template)));
		Map<String, List<long[]>> samples = new LinkedHashMap<>();
		contenders.forEach((c) -> samples.put(c.name(), new ArrayList<>()));
		int calls = this.settings.rounds() * this.settings.opsPerRound();
		GcCount gc = GcCount.now();
		try {
			for (int i = 0; i < calls; i++) {
				for (int k = 0; k < contenders.size(); k++) {
					Contender contender = contenders.get((i + k) % contenders.size());
					ObservationProbe probe = probes.get(contender.name());
					if (probe != null) {
						probe.take();
					}
					long cpu = threads.getCurrentThreadCpuTime();
					long start = System.nanoTime();
					contender.op();
					long wall = System.nanoTime() - start;
					cpu = threads.getCurrentThreadCpuTime() - cpu;
					long[] sites = (probe != null) ? probe.take() : new long[ObservationProbe.SITES.size()];
					long[] row = new long[3 + sites.length];
					row[0] = wall;
					row[1] = cpu;
					row[2] = Arrays.stream(sites).sum();
					System.arraycopy(sites, 0, row, 3, sites.length);
					samples.get(contender.name()).add(row);
					LockSupport.parkNanos(this.pause.toNanos());
				}
			}
		}
		finally {
			probes.values().forEach(ObservationProbe::remove);
		}
		StringBuilder note = new StringBuilder(String.format(Locale.ROOT, "%s, %d calls per contender, %d ms apart, "
				+ "interleaved as above, each call timed three ways (p50, µs): wall time / the caller thread's CPU "
				+ "time / time inside the observation calls where the lock path makes them (wait started and stopped, "
				+ "hold started, scoped and stopped; the probe's own timing is the no-registry rows' figure):", label,
				calls, this.pause.toMillis()));
		samples.forEach((name, rows) -> note.append(String.format(Locale.ROOT, " %s %.0f / %.0f / %.1f;",
				name.replace("zk-spring @ZkLock, ", ""), p50(rows, 0), p50(rows, 1), p50(rows, 2))));
		note.replace(note.length() - 1, note.length(), ".");
		note.append(" Per call site (p50, µs: ").append(String.join(" / ", ObservationProbe.SITES)).append("):");
		samples.forEach((name, rows) -> {
			if (probes.containsKey(name)) {
				note.append(' ').append(name.replace("zk-spring @ZkLock, ", ""));
				for (int site = 0; site < ObservationProbe.SITES.size(); site++) {
					note.append(String.format(Locale.ROOT, (site == 0) ? " %.1f" : " / %.1f", p50(rows, 3 + site)));
				}
				note.append(';');
			}
		});
		report.note(note.toString().replaceAll(";$", ".") + " Garbage collection during the pass: " + gc.since() + ".");
	}

	private static double p50(List<long[]> rows, int column) {
		long[] values = rows.stream().mapToLong((r) -> r[column]).sorted().toArray();
		return values[(values.length - 1) / 2] / 1_000.0;
	}

	/** Collections and their time since a moment, over every collector of this JVM. */
	record GcCount(long count, long millis) {

		static GcCount now() {
			long count = 0;
			long millis = 0;
			for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
				count += Math.max(0, gc.getCollectionCount());
				millis += Math.max(0, gc.getCollectionTime());
			}
			return new GcCount(count, millis);
		}

		String since() {
			GcCount now = now();
			return (now.count - this.count) + " collections, " + (now.millis - this.millis) + " ms in all";
		}

	}

}
