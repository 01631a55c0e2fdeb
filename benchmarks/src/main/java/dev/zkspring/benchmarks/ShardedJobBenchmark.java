package dev.zkspring.benchmarks;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.crash.CrashDetector;

/**
 * Issue 40's rows: a 4-shard job's fire time spread over 1, 2 and 3 instances (fire time → last shard done),
 * and a shard's handover after {@code kill -9} of its owner in a JVM of its own, with crash detection on and
 * off, ÷ the session timeout.
 * <p>
 * Over 300 lines because both scenarios share one harness of instances, fire times and the killed JVM.
 */
final class ShardedJobBenchmark {

	/** Boot's Quartz auto-configuration, excluded by the other benchmarks' applications so they measure what they did before Quartz joined the classpath. */
	static final String QUARTZ_AUTO_CONFIGURATION = "org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration";

	static final int SHARDS = 4;

	static final long WORK_MILLIS = 200;

	private final String connectString;

	private final Report report;

	private final Settings settings;

	private final String classpath;

	private int apps;

	ShardedJobBenchmark(String connectString, Report report, Settings settings) throws Exception {
		this.connectString = connectString;
		this.report = report;
		this.settings = settings;
		this.classpath = String.join(File.pathSeparator,
				IsolatedZkSpring.classpath().stream().map(Path::toString).toList());
	}

	void run() throws Exception {
		this.report.section("Sharded jobs",
				"Issue 40: one job with " + SHARDS + " shards (`zk.quartz.jobs.report.shards`), requesting recovery, "
						+ "every instance an application context with its own client and session on one server, "
						+ "session timeout " + CrashBenchmarks.SESSION_TIMEOUT_MS + " ms. A shard's work sleeps "
						+ WORK_MILLIS + " ms: on 2 cores, CPU-bound work in one JVM would measure the cores, not the spread.");
		try {
			spread();
		}
		catch (Exception ex) {
			this.report.failed("Sharded job spread over instances", "zk-spring", ex);
		}
		try {
			handover();
		}
		catch (Exception ex) {
			this.report.failed("Shard handover after kill -9", "zk-spring", ex);
		}
	}

	/** One fire time's total work (fire time → last shard done) on 1, 2 and 3 instances. */
	private void spread() throws Exception {
		int samples = this.settings.quick() ? 3 : 10;
		StringBuilder table = new StringBuilder("\n**One fire time of a " + SHARDS + "-shard job, " + WORK_MILLIS
				+ " ms of work per shard: fire time → last shard done** (ms; " + samples + " fire times per row, after the "
				+ "assignment settled)\n\n| instances | an instance runs | shards per instance | p50 | p99 | max | ideal | "
				+ "p50 ÷ 1 instance |\n|---|---|---|---:|---:|---:|---:|---:|\n");
		for (boolean oneAtATime : new boolean[] { true, false }) {
			double single = 0;
			for (int n = 1; n <= 3; n++) {
				List<Long> walls = new ArrayList<>();
				String loads = fireTimes(n, oneAtATime, samples, walls);
				Stats stats = Stats.of(walls.stream().mapToLong((ms) -> ms * 1_000_000).toArray());
				if (n == 1) {
					single = stats.p50();
				}
				long ideal = oneAtATime ? WORK_MILLIS * ((SHARDS + n - 1) / n) : WORK_MILLIS;
				table.append(String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %d | %.2f× |%n", n,
						oneAtATime ? "one shard at a time" : "its shards at once", loads, ms(stats.p50()), ms(stats.p99()),
						ms(stats.max()), ideal, stats.p50() / single));
			}
		}
		this.report.note(table.toString());
		this.report.note("\"One shard at a time\": the job takes a per-instance permit of one, as work bound by an "
				+ "instance's capacity (its CPU, a pool of one connection) is; spreading then divides the wall time. "
				+ "\"Its shards at once\": zk-spring's own behaviour, a thread per shard run, so what is left above "
				+ WORK_MILLIS + " ms is the dispatch: the leader's firing, the dispatch node, each owner's claim and "
				+ "Quartz's firing lateness. Ideal: ⌈" + SHARDS + " ÷ instances⌉ × " + WORK_MILLIS + " ms, or "
				+ WORK_MILLIS + " ms.");
	}

	/** Start n instances, wait for an even assignment, then record {@code samples} fire times' wall times. */
	private String fireTimes(int n, boolean oneAtATime, int samples, List<Long> walls) throws Exception {
		long period = oneAtATime ? 1_500 : 1_000;
		String app = nextApp();
		List<ConfigurableApplicationContext> instances = new ArrayList<>();
		ShardBenchApp.runs.clear();
		try {
			for (int i = 0; i < n; i++) {
				instances.add(ShardBenchApp.start(this.connectString, app, "s" + i, "zk.quartz.jobs.report.shards=" + SHARDS,
						"bench.period-millis=" + period, "bench.work-millis=" + WORK_MILLIS, "bench.one-at-a-time=" + oneAtATime));
			}
			int even = (SHARDS + n - 1) / n;
			long settled = 0;
			long deadline = System.currentTimeMillis() + 60_000;
			while (settled == 0) {
				for (Map.Entry<Long, List<ShardBenchApp.Run>> fire : complete().entrySet()) {
					if (maxLoad(fire.getValue()) <= even && instancesOf(fire.getValue()) == Math.min(n, SHARDS)) {
						settled = fire.getKey();
						break;
					}
				}
				check(deadline, "the shards of " + n + " instances did not settle");
				TimeUnit.MILLISECONDS.sleep(20);
			}
			String loads = "";
			long after = settled;
			while (walls.size() < samples) {
				check(deadline + samples * period * 2, "fewer fire times than expected ran");
				for (Map.Entry<Long, List<ShardBenchApp.Run>> fire : complete().entrySet()) {
					if (fire.getKey() > after && walls.size() < samples) {
						after = fire.getKey();
						walls.add(fire.getValue().stream().mapToLong(ShardBenchApp.Run::end).max().orElseThrow() - fire.getKey());
						loads = loads(fire.getValue());
					}
				}
				TimeUnit.MILLISECONDS.sleep(20);
			}
			return loads;
		}
		finally {
			for (ConfigurableApplicationContext instance : instances) {
				instance.close();
			}
		}
	}

	/** Fire times whose shards have all ended once, by fire time. */
	private static TreeMap<Long, List<ShardBenchApp.Run>> complete() {
		TreeMap<Long, List<ShardBenchApp.Run>> fires = new TreeMap<>();
		for (ShardBenchApp.Run run : ShardBenchApp.runs) {
			fires.computeIfAbsent(run.fireTime(), (f) -> new ArrayList<>()).add(run);
		}
		fires.values().removeIf((runs) -> runs.stream().map(ShardBenchApp.Run::index).distinct().count() < SHARDS);
		return fires;
	}

	private static int maxLoad(List<ShardBenchApp.Run> runs) {
		Map<String, Integer> loads = new TreeMap<>();
		runs.forEach((run) -> loads.merge(run.instance(), 1, Integer::sum));
		return loads.values().stream().mapToInt(Integer::intValue).max().orElse(0);
	}

	private static long instancesOf(List<ShardBenchApp.Run> runs) {
		return runs.stream().map(ShardBenchApp.Run::instance).distinct().count();
	}

	private static String loads(List<ShardBenchApp.Run> runs) {
		Map<String, Integer> loads = new TreeMap<>();
		runs.forEach((run) -> loads.merge(run.instance(), 1, Integer::sum));
		return String.join(", ", loads.values().stream().sorted((a, b) -> b - a).map(String::valueOf).toList());
	}

	/**
	 * kill -9 of a shard's owner while it runs its shard (its JVM's work never ends): a sample is the time
	 * from the signal to the start of that shard's recovery run on the survivor in this JVM.
	 */
	private void handover() throws Exception {
		int on = this.settings.quick() ? 2 : 10;
		int off = this.settings.quick() ? 1 : 3;
		int last = this.settings.quick() ? 1 : 3;
		Map<String, List<Long>> samples = new java.util.LinkedHashMap<>();
		samples.put("detection on, the owner ahead of the survivor in the leader latch's line", new ArrayList<>());
		samples.put("detection off, the owner ahead of the survivor", new ArrayList<>());
		samples.put("detection on, the owner last in the line (the leader watches it)", new ArrayList<>());
		List<String> names = new ArrayList<>(samples.keySet());
		for (int i = 0; i < on; i++) {
			samples.get(names.get(0)).add(once(true, true));
			if (i < off) {
				samples.get(names.get(1)).add(once(false, true));
			}
			if (i < last) {
				samples.get(names.get(2)).add(once(true, false));
			}
		}
		StringBuilder table = new StringBuilder("\n**kill -9 of a shard's owner while it runs the shard → the survivor "
				+ "starts the shard's recovery run** (ms)\n\n| case | samples | p50 | p99 | max | p50 ÷ session timeout |\n"
				+ "|---|---:|---:|---:|---:|---:|\n");
		samples.forEach((name, values) -> {
			Stats stats = Stats.of(values.stream().mapToLong((ms) -> ms * 1_000_000).toArray());
			table.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %.3f× |%n", name, stats.count(),
					ms(stats.p50()), ms(stats.p99()), ms(stats.max()), stats.p50() / 1_000.0 / CrashBenchmarks.SESSION_TIMEOUT_MS));
		});
		this.report.note(table.toString());
	}

	/** One kill; milliseconds from the signal to the survivor starting the killed owner's shard again. */
	private long once(boolean detection, boolean ownerAhead) throws Exception {
		String app = nextApp();
		String[] common = { "zk.quartz.jobs.report.shards=" + SHARDS, "bench.period-millis=1000",
				"zk.crash-detection.enabled=" + detection };
		ConfigurableApplicationContext survivor = null;
		Process victim = null;
		BlockingQueue<long[]> running = new LinkedBlockingQueue<>();
		ShardBenchApp.runs.clear();
		try {
			if (ownerAhead) {
				victim = startVictim(app, common, running);
			}
			survivor = ShardBenchApp.start(this.connectString, app, "survivor", concat(common, "bench.work-millis=20"));
			if (!ownerAhead) {
				victim = startVictim(app, common, running);
			}
			long deadline = System.currentTimeMillis() + 60_000;
			while (ShardBenchApp.runs.isEmpty()) {
				check(deadline, "the survivor ran no shard");
				TimeUnit.MILLISECONDS.sleep(10);
			}
			if (detection) {
				CrashDetector detector = survivor.getBean(CrashDetector.class);
				await(() -> detector.describe().get("watching") instanceof List<?> list && list.size() == 1
						&& list.get(0) instanceof Map<?, ?> peer && "CONNECTED".equals(peer.get("state")));
			}
			long seen = ShardBenchApp.runs.peek().fireTime();
			running.clear();
			long[] shard;
			do {
				shard = running.poll(30, TimeUnit.SECONDS);
				if (shard == null) {
					throw new IllegalStateException("the owner to kill started no shard");
				}
			}
			while (shard[0] <= seen);
			long killed = System.currentTimeMillis();
			victim.destroyForcibly();
			long fireTime = shard[0];
			int index = (int) shard[1];
			long until = killed + CrashBenchmarks.SESSION_TIMEOUT_MS * 4L + 10_000;
			while (true) {
				for (ShardBenchApp.Run run : ShardBenchApp.runs) {
					if (run.fireTime() == fireTime && run.index() == index) {
						return run.start() - killed;
					}
				}
				check(until, "the killed owner's shard did not run again within 4× the session timeout");
				TimeUnit.MILLISECONDS.sleep(1);
			}
		}
		finally {
			if (victim != null) {
				victim.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
			if (survivor != null) {
				survivor.close();
			}
		}
	}

	private Process startVictim(String app, String[] properties, BlockingQueue<long[]> running) throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		List<String> command = new ArrayList<>(List.of(java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-cp", this.classpath,
				ShardVictimMain.class.getName(), this.connectString, app, "victim"));
		command.addAll(Arrays.asList(properties));
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		String line;
		while ((line = reader.readLine()) != null) {
			if (line.startsWith("READY")) {
				Thread drain = new Thread(() -> {
					try {
						String next;
						while ((next = reader.readLine()) != null) {
							if (next.startsWith("RUNNING ")) {
								String[] parts = next.split(" ");
								running.add(new long[] { Long.parseLong(parts[1]), Long.parseLong(parts[2]) });
							}
						}
					}
					catch (Exception ex) {
						// ended
					}
				});
				drain.setDaemon(true);
				drain.start();
				return process;
			}
		}
		throw new IllegalStateException("the shard owner's JVM ended before it was ready");
	}

	private String nextApp() {
		return ShardBenchApp.APP + "-" + ProcessHandle.current().pid() + "-" + (++this.apps);
	}

	private static String[] concat(String[] first, String... more) {
		String[] all = Arrays.copyOf(first, first.length + more.length);
		System.arraycopy(more, 0, all, first.length, more.length);
		return all;
	}

	private static String ms(double micros) {
		return String.format(Locale.ROOT, "%,.0f", micros / 1_000.0);
	}

	private static void check(long deadline, String failure) {
		if (System.currentTimeMillis() > deadline) {
			throw new IllegalStateException(failure);
		}
	}

	private static void await(BooleanSupplier condition) throws InterruptedException {
		long deadline = System.currentTimeMillis() + 60_000;
		while (!condition.getAsBoolean()) {
			check(deadline, "timed out");
			TimeUnit.MILLISECONDS.sleep(5);
		}
	}

}
