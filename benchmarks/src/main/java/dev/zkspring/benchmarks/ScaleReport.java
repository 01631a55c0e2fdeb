package dev.zkspring.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/** The scale run's tables, one per figure with a row per ensemble and N, and its growth in words. */
final class ScaleReport {

	private final Report report;

	private final List<ScaleRow> rows;

	ScaleReport(Report report, List<ScaleRow> rows) {
		this.report = report;
		this.rows = rows;
	}

	void write() {
		this.report.note(ScaleMarkers.BEGIN);
		this.report.section("Scale", "N instances, each a whole Spring context (no web server) with the starter's "
				+ "machinery on a session of its own: the config watcher and refresher with one `@RefreshScope` bean, the "
				+ "fleet publisher, the leader election, the lock registry. All N in this JVM, on a 3-node ensemble "
				+ "(curator-test `TestingCluster`, three servers in this process) and on one embedded server. Floors in "
				+ "the same run: N bare `CuratorCache` listeners on N sessions of their own; raw Curator's "
				+ "`InterProcessMutex` on those sessions. Plots: `scale-*.svg` beside this file.");
		table("Fan-out: `setData` → all N applied (µs; rounds of ours and the floor interleaved)",
				List.of("samples", "p50", "p99", "max", "floor p50", "floor p99", "floor max", "p50 ÷ floor", "max ÷ floor"),
				(r) -> List.of(String.valueOf(r.fanOut.count()), Report.fmt(r.fanOut.p50()), Report.fmt(r.fanOut.p99()),
						Report.fmt(r.fanOut.max()), Report.fmt(r.floor.p50()), Report.fmt(r.floor.p99()),
						Report.fmt(r.floor.max()), ratio(r.fanOut.p50() / r.floor.p50()), ratio(r.fanOut.max() / r.floor.max())));
		growth("fan-out p50", (r) -> r.fanOut.p50());
		growth("floor p50", (r) -> r.floor.p50());
		table("Idle cost per instance (from the servers' `mntr`, summed over servers, an idle writer's share subtracted)",
				List.of("requests/s", "bytes/s received", "watches", "connections", "heap MiB", "start ms"),
				(r) -> List.of(fmt2(r.idle.requestsPerSecond()), Report.fmt(r.idle.bytesPerSecond()),
						fmt2(r.idle.watches()), fmt2(r.idle.connections()), fmt2(r.heapMiBPerInstance),
						Report.fmt(r.startMillisPerInstance)));
		growth("idle requests/s per instance", (r) -> r.idle.requestsPerSecond());
		table("Crash detection at rest, per instance (the same idle window; issue 42)",
				List.of("TCP connections (kernel)", "links (detectors)", "bytes/s on them", "TCP segments/s on them"),
				(r) -> List.of(fmt2(r.detection.connections()), fmt2(r.detection.watching()),
						fmt2(r.detection.bytesPerSecond()), fmt2(r.detection.segmentsPerSecond())));
		this.report.note("Every instance runs crash detection, as an application does by default: a listener, a session "
				+ "card, and a link from each instance to the one ahead of it in the leader latch's line, and from the "
				+ "leader to the last in line (N links in all). Counted by the kernel (`ss -tin`): the established TCP sockets whose local port is one of the "
				+ "instances' detector listeners, so each connection once, on the side that accepted it, with the bytes "
				+ "and segments it carried both ways during the idle window (so the handshake, before the window, is not "
				+ "in it); \"links\" is the detectors' own count of the peers they watch. No byte is expected: the "
				+ "listener writes nothing and keep-alive is off.");
		growth("watches per instance", (r) -> r.idle.watches());
		table("Fleet view", List.of("read all N (ms, median of 5)", "fleet writes per instance per change",
				"fleet writes/s, whole fleet, change + 2 s", "one instance's fleet writes/s in a lock burst",
				"lock calls in the 1 s burst"),
				(r) -> List.of(fmt2(r.fleetReadMillis), fmt2(r.fleetWritesPerInstancePerChange),
						fmt2(r.fleetWritesPerSecondDuringChange), fmt2(r.fleetWritesPerSecondLockBurst),
						String.valueOf(r.lockBurstOps)));
		growth("fleet view read", (r) -> r.fleetReadMillis);
		growth("fleet writes per instance per change", (r) -> r.fleetWritesPerInstancePerChange);
		table("Leader failover with N participants (the leader's session expired at the server)",
				List.of("ms to one new leader", "requests to the ensemble, expiry + 1 s", "per participant"),
				(r) -> List.of(fmt2(r.failoverMillis), Report.fmt(r.failoverRequests), fmt2(r.failoverRequests / r.n)));
		growth("failover time", (r) -> r.failoverMillis);
		growth("failover requests", (r) -> r.failoverRequests);
		table("One lock key, N sessions, one thread each (two slices each, alternating)",
				List.of("zk-spring ops/s", "max wait ms", "raw Curator ops/s", "raw max wait ms", "ops ÷ raw"),
				(r) -> List.of(Report.fmt(r.lockOps), Report.fmt(r.lockMaxWaitMillis), Report.fmt(r.rawLockOps),
						Report.fmt(r.rawLockMaxWaitMillis), ratio(r.lockOps / r.rawLockOps)));
		growth("zk-spring lock ops/s", (r) -> r.lockOps);
		growth("raw Curator lock ops/s", (r) -> r.rawLockOps);
	}

	private void table(String title, List<String> columns, Function<ScaleRow, List<String>> cells) {
		StringBuilder table = new StringBuilder("**" + title + "**\n\n| ensemble | N |");
		columns.forEach((c) -> table.append(' ').append(c).append(" |"));
		table.append("\n|---|---:|").append("---:|".repeat(columns.size())).append('\n');
		for (ScaleRow row : this.rows) {
			table.append("| ").append(row.ensemble).append(" | ").append(row.n).append(" |");
			cells.apply(row).forEach((c) -> table.append(' ').append(c).append(" |"));
			table.append('\n');
		}
		this.report.note(table.toString());
	}

	/** The exponent k of value ∝ N^k between the smallest N above 1 and the largest, per ensemble, in words. */
	private void growth(String figure, ToDoubleFunction<ScaleRow> value) {
		StringBuilder text = new StringBuilder("Growth of " + figure + ":");
		for (String ensemble : this.rows.stream().map((r) -> r.ensemble).distinct().toList()) {
			List<ScaleRow> of = this.rows.stream().filter((r) -> r.ensemble.equals(ensemble) && r.n > 1).toList();
			if (of.size() < 2) {
				continue;
			}
			ScaleRow first = of.get(0);
			ScaleRow last = of.get(of.size() - 1);
			double a = value.applyAsDouble(first);
			double b = value.applyAsDouble(last);
			String words;
			if (!(a > 0) || !(b > 0)) {
				words = "not defined (a zero or negative figure)";
			}
			else {
				double k = Math.log(b / a) / Math.log((double) last.n / first.n);
				words = String.format(Locale.ROOT, "N^%.2f from N=%d to %d, %s", k, first.n, last.n,
						(Math.abs(k) < 0.2) ? "flat" : (k < 0) ? "falling" : (k < 0.8) ? "sub-linear" : (k <= 1.2) ? "linear"
								: "worse than linear");
			}
			text.append(' ').append(ensemble).append(": ").append(words).append(';');
		}
		this.report.note(text.toString().replaceAll(";$", "."));
	}

	private static String fmt2(double value) {
		return String.format(Locale.ROOT, (Math.abs(value) >= 100) ? "%,.0f" : "%.2f", value);
	}

	private static String ratio(double value) {
		return String.format(Locale.ROOT, "%.2f×", value);
	}

}
