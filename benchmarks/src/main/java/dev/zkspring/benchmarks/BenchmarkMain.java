package dev.zkspring.benchmarks;

import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.zkspring.embedded.EmbeddedZooKeeper;

/**
 * Runs every scenario against one in-process ZooKeeper and writes the results.
 * Arguments: {@code --quick} for the smoke check, {@code --locks-only} for the lock scenarios alone,
 * {@code --lock-ab=JAR} (with {@code --lock-ab-label=TEXT}) to measure {@code @ZkLock} against an earlier
 * build's zk-spring-autoconfigure jar in the same run (see benchmarks/lock-ab.sh; {@code --lock-ab-only}
 * for that comparison alone),
 * {@code --config-only} for config propagation alone, {@code --observation-only} for the {@code @ZkLock} row with and
 * without Micrometer Observations alone, {@code --shards-only} for the sharded job's spread and handover alone, {@code --crash-only} for crash detection alone (kill -9 failover, idle cost), {@code --scale} for the scale run alone, written in place of RESULTS.md's scale section (with
 * {@code --quick}: N = 1 and 10 only; {@code --scale-sizes=1,10,50,200} to choose N),
 * {@code --scale-fanout-only} for the scale run's fan-out against its floor alone, on the 3-node ensemble,
 * printed and not written ({@code --rounds=3} rounds per N, with {@code --scale-sizes}), and
 * {@code --out=FILE} (default benchmarks/RESULTS.md). The full run ends with the scale run.
 */
public final class BenchmarkMain {

	private BenchmarkMain() {
	}

	public static void main(String[] args) throws Exception {
		List<String> arguments = Arrays.asList(args);
		Settings settings = arguments.contains("--quick") ? Settings.quickRun() : Settings.fullRun();
		Path out = Path.of(option(arguments, "--out=", "benchmarks/RESULTS.md"));
		long started = System.nanoTime();
		Report report = new Report();
		Harness harness = new Harness(settings);
		ScaleSettings scale = settings.quick() ? ScaleSettings.quickRun()
				: ScaleSettings.full(Arrays.stream(option(arguments, "--scale-sizes=", "1,10,50,200").split(","))
					.map(String::trim).map(Integer::valueOf).toList());
		Path plots = (out.toAbsolutePath().getParent() != null) ? out.toAbsolutePath().getParent() : Path.of(".");
		java.nio.file.Files.createDirectories(plots);
		if (arguments.contains("--scale-fanout-only")) {
			new ScaleBenchmark(report, scale, plots).runFanOutOnly(Integer.parseInt(option(arguments, "--rounds=", "3")));
			System.exit(0);
		}
		if (arguments.contains("--scale")) {
			scale(report, scale, plots, started);
			ScaleMarkers.splice(out, report.body());
			System.out.println("Wrote the scale section of " + out.toAbsolutePath());
			System.exit(0);
		}
		try (EmbeddedZooKeeper server = EmbeddedZooKeeper.start(0, null);
				Clients clients = new Clients(server.connectString())) {
			if (arguments.contains("--observation-only")) {
				new ObservationBenchmark(clients, harness, report).run();
				report.write(out, settings);
				System.out.println("Wrote " + out.toAbsolutePath());
				System.exit(0);
			}
			if (arguments.contains("--shards-only")) {
				new ShardedJobBenchmark(server.connectString(), report, settings).run();
				report.write(out, settings);
				System.out.println("Wrote " + out.toAbsolutePath());
				System.exit(0);
			}
			if (arguments.contains("--crash-only")) {
				new CrashBenchmarks(clients, report, settings).run();
				report.write(out, settings);
				System.out.println("Wrote " + out.toAbsolutePath());
				System.exit(0);
			}
			if (arguments.contains("--leadership-only")) {
				new LeaderBenchmarks(clients, server.port(), report, settings).run();
				report.write(out, settings);
				System.out.println("Wrote " + out.toAbsolutePath());
				System.exit(0);
			}
			List<LockLibrary> locks = new ArrayList<>(List.of(ZkSpringLocks.ANNOTATION, ZkSpringLocks.TEMPLATE,
					LockLibrary.RAW_CURATOR, LockLibrary.SPRING_INTEGRATION, LockLibrary.SHEDLOCK));
			String abJar = option(arguments, "--lock-ab=", null);
			if (!arguments.contains("--config-only") && (abJar == null || !arguments.contains("--lock-ab-only"))) {
				new LockBenchmarks(clients, server.port(), harness, report, locks).run();
				new ObservationBenchmark(clients, harness, report).run();
			}
			if (abJar != null) {
				new LockAbBenchmark(clients, harness, report, Path.of(abJar),
						option(arguments, "--lock-ab-label=", "earlier build")).run();
			}
			if (arguments.contains("--locks-only") || arguments.contains("--lock-ab-only")) {
				report.write(out, settings);
				System.out.println("Wrote " + out.toAbsolutePath());
				System.exit(0);
			}
			new ConfigBenchmarks(clients, harness, report, List.of(new ZkSpringConfig(), new SpringCloudZookeeperConfig())).run();
			if (arguments.contains("--config-only")) {
				report.write(out, settings);
				System.out.println("Wrote " + out.toAbsolutePath());
				System.exit(0);
			}
			new RefreshScaleBenchmark(clients, harness, report).run();
			new LeaderBenchmarks(clients, server.port(), report, settings).run();
			new CrashBenchmarks(clients, report, settings).run();
			new ShardedJobBenchmark(server.connectString(), report, settings).run();
			new StartupBenchmark(server.connectString(), report, settings).run();
		}
		scale(report, scale, plots, System.nanoTime());
		report.note("\nWhole run: " + (System.nanoTime() - started) / 1_000_000_000 + " s.");
		report.write(out, settings);
		System.out.println("Wrote " + out.toAbsolutePath());
		System.exit(0);
	}

	private static void scale(Report report, ScaleSettings scale, Path plots, long started) throws Exception {
		new ScaleBenchmark(report, scale, plots).run();
		report.note("Scale run of " + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ": sizes " + scale.sizes() + ", "
				+ (scale.quick() ? "quick form, " : "") + (System.nanoTime() - started) / 1_000_000_000 + " s.\n\n"
				+ ScaleMarkers.END);
	}

	private static String option(List<String> arguments, String prefix, String fallback) {
		return arguments.stream()
			.filter((a) -> a.startsWith(prefix))
			.map((a) -> a.substring(prefix.length()))
			.findFirst()
			.orElse(fallback);
	}

}
