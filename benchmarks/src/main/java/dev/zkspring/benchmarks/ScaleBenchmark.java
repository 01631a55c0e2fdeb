package dev.zkspring.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import org.apache.curator.framework.CuratorFramework;

/**
 * How cost grows with the fleet: N instances on a 3-node ensemble and on one server, each figure
 * against N, with its floor measured in the same run. Writes its tables into the report and one SVG
 * per figure beside it.
 */
final class ScaleBenchmark {

	private final Report report;

	private final ScaleSettings settings;

	private final Path plots;

	ScaleBenchmark(Report report, ScaleSettings settings, Path plots) {
		this.report = report;
		this.settings = settings;
		this.plots = plots;
	}

	void run() throws Exception {
		List<ScaleRow> rows = new ArrayList<>();
		for (boolean threeNodes : new boolean[] { true, false }) {
			try (ScaleEnsemble ensemble = threeNodes ? ScaleEnsemble.threeNodes() : ScaleEnsemble.oneServer();
					Clients clients = new Clients(ensemble.connectString())) {
				CuratorFramework writer = clients.connect();
				writer.create().orSetData().creatingParentsIfNeeded()
					.forPath(ScaleInstance.DOCUMENT, ScaleInstance.document("0"));
				ScaleRow.Idle baseline = ScaleRun.idle(ensemble, this.settings.idleWindow());
				ScaleRun run = new ScaleRun(ensemble, writer, this.settings);
				for (int n : this.settings.sizes()) {
					long start = System.nanoTime();
					ScaleRow row = run.measure(n, baseline);
					rows.add(row);
					System.out.printf(Locale.ROOT, "scale: %s N=%d done in %.0f s (fan-out p50 %.0f µs, floor %.0f µs)%n",
							ensemble.label(), n, (System.nanoTime() - start) / 1e9, row.fanOut.p50(), row.floor.p50());
				}
			}
		}
		new ScaleReport(this.report, rows).write();
		plot(rows);
	}

	/**
	 * Fan-out against the floor only, on the 3-node ensemble, {@code rounds} rounds per N, printed (not
	 * written to the report): the quick loop for work on the config watcher.
	 */
	void runFanOutOnly(int rounds) throws Exception {
		try (ScaleEnsemble ensemble = ScaleEnsemble.threeNodes(); Clients clients = new Clients(ensemble.connectString())) {
			CuratorFramework writer = clients.connect();
			writer.create().orSetData().creatingParentsIfNeeded()
				.forPath(ScaleInstance.DOCUMENT, ScaleInstance.document("0"));
			ScaleRun run = new ScaleRun(ensemble, writer, this.settings);
			System.out.println("| ensemble | N | round | samples | p50 µs | p99 µs | max µs | floor p50 | floor p99 | floor max | p50 ÷ floor |");
			System.out.println("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
			for (int n : this.settings.sizes()) {
				int round = 1;
				for (ScaleRow row : run.measureFanOut(n, rounds)) {
					System.out.printf(Locale.ROOT, "| %s | %d | %d | %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f× |%n",
							ensemble.label(), n, round++, row.fanOut.count(), row.fanOut.p50(), row.fanOut.p99(),
							row.fanOut.max(), row.floor.p50(), row.floor.p99(), row.floor.max(),
							row.fanOut.p50() / row.floor.p50());
				}
			}
		}
	}

	private void plot(List<ScaleRow> rows) throws Exception {
		chart("Fan-out: setData until all N applied, p50", "µs", true, rows,
				new Line("zk-spring", (r) -> r.fanOut.p50()), new Line("bare CuratorCache (floor)", (r) -> r.floor.p50()))
			.write(this.plots.resolve("scale-fanout.svg"));
		chart("Idle cost per instance", "requests per second", false, rows,
				new Line("requests/s", (r) -> r.idle.requestsPerSecond()))
			.write(this.plots.resolve("scale-idle.svg"));
		chart("Reading the fleet view of N", "ms", true, rows, new Line("ZkFleet.instances()", (r) -> r.fleetReadMillis))
			.write(this.plots.resolve("scale-fleet.svg"));
		chart("Leader failover with N participants", "ms to one new leader", false, rows,
				new Line("session expired", (r) -> r.failoverMillis))
			.write(this.plots.resolve("scale-failover.svg"));
		chart("One key, N sessions: throughput", "ops/s", true, rows, new Line("zk-spring", (r) -> r.lockOps),
				new Line("raw Curator InterProcessMutex", (r) -> r.rawLockOps))
			.write(this.plots.resolve("scale-lock.svg"));
	}

	private static SvgChart chart(String title, String unit, boolean logY, List<ScaleRow> rows, Line... lines) {
		SvgChart chart = new SvgChart(title, unit, logY);
		for (String ensemble : rows.stream().map((r) -> r.ensemble).distinct().toList()) {
			for (Line line : lines) {
				chart.add(line.name() + ", " + ensemble, rows.stream().filter((r) -> r.ensemble.equals(ensemble))
					.map((r) -> new double[] { r.n, line.value().applyAsDouble(r) }).toList());
			}
		}
		return chart;
	}

	private record Line(String name, ToDoubleFunction<ScaleRow> value) {
	}

}
