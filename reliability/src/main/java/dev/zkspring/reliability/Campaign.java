package dev.zkspring.reliability;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The reliability campaign: a 3-process ZooKeeper ensemble, 3 workload JVMs behind controllable links,
 * faults injected one at a time on a seeded schedule, then checkers over what every process journaled.
 * <pre>
 * java -jar reliability/target/reliability.jar [--quick] [--seed=N] [--minutes=M]
 * </pre>
 * The last line is {@code reliability: N faults injected, M violations}; the exit status is 1 when M &gt; 0.
 * <p>
 * Over 300 lines because it is the campaign's script, read top to bottom: each fault is injected and
 * healed in one place, with the convergence it must reach afterwards; the checkers, faults, processes and
 * links have files of their own.
 */
public final class Campaign {

	static final int WORKLOADS = 3;

	/** The workloads' zk.session-timeout (their application.yml). */
	static final long SESSION_MILLIS = 3_000;

	/**
	 * How long the campaign runs on once every fault has healed and every instance is ready, before it stops
	 * them: the last handovers of a lost owner's shards happen in it (ShardChecker requires every fire time
	 * of a recovering job dispatched before that point to run each shard).
	 */
	static final long SETTLE_MILLIS = 8_000;

	private final Random random;

	private final Ensemble ensemble;

	private final ConfigWriter writer;

	private final List<Workload> workloads = new ArrayList<>();

	private final List<Injected> injected = new ArrayList<>();

	private final List<ConvergePoint> convergePoints = new ArrayList<>();

	private final List<Outage> outages = new ArrayList<>();

	/** When every fault had healed and every instance was ready again (see {@link #SETTLE_MILLIS}). */
	private long settledNanos = Long.MAX_VALUE;

	private Campaign(long seed, Path dir, Closer closer) throws Exception {
		this.random = new Random(seed);
		this.ensemble = new Ensemble(dir);
		closer.ensemble = this.ensemble;
		if (!this.ensemble.awaitAllServing(60_000)) {
			throw new IllegalStateException("the ensemble did not form within 60 s; see " + dir + "/zk*/server.log");
		}
		this.writer = new ConfigWriter(this.ensemble.connectString());
		closer.writer = this.writer;
		this.writer.writeGood();
		for (int i = 1; i <= WORKLOADS; i++) {
			Workload workload = new Workload(i, dir, this.ensemble);
			this.workloads.add(workload);
			closer.workloads.add(workload);
			workload.start();
		}
		awaitReady(Duration.minutes(2));
	}

	public static void main(String[] args) throws Exception {
		// the campaign's own ZooKeeper clients would log every connection change at INFO
		((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME))
			.setLevel(ch.qos.logback.classic.Level.WARN);
		boolean quick = false;
		long seed = System.currentTimeMillis();
		double minutes = -1;
		for (String arg : args) {
			if (arg.equals("--quick")) {
				quick = true;
			}
			else if (arg.startsWith("--seed=")) {
				seed = Long.parseLong(arg.substring(7));
			}
			else if (arg.startsWith("--minutes=")) {
				minutes = Double.parseDouble(arg.substring(10));
			}
			else {
				System.err.println("usage: java -jar reliability.jar [--quick] [--seed=N] [--minutes=M]");
				System.exit(2);
			}
		}
		if (minutes < 0) {
			minutes = quick ? 3 : 25;
		}
		Path dir = Files.createTempDirectory("zk-reliability-");
		System.out.println("reliability: seed " + seed + (quick ? " (quick)" : "") + ", faults for " + minutes
				+ " min, work directory " + dir + " (replay with --seed=" + seed + (quick ? " --quick" : "") + ")");
		Report report;
		long started = System.nanoTime();
		try (Closer closer = new Closer()) {
			Campaign campaign = new Campaign(seed, dir, closer);
			campaign.run((long) (minutes * 60_000));
			campaign.finish();
			report = campaign.check(seed, quick, System.nanoTime() - started);
		}
		Path out = Files.isDirectory(Path.of("reliability", "src")) ? Path.of("reliability") : Path.of(".");
		Path file = out.resolve(quick ? "target/RESULTS-quick.md" : "RESULTS.md");
		Files.createDirectories(file.getParent());
		Files.writeString(file, report.markdown());
		System.out.println(report.markdown());
		System.out.println("results written to " + file);
		System.out.println("reliability: " + report.faults() + " faults injected, " + report.violations() + " violations");
		System.exit(report.violations() > 0 ? 1 : 0);
	}

	private void run(long millis) {
		long end = System.currentTimeMillis() + millis;
		Fault[] faults = Fault.values();
		// a burst before any fault, so that every run, however short and whatever its seed, has one
		this.writer.writeBurst(this.random);
		convergeAfter("the first burst");
		Processes.pause(1_000);
		while (System.currentTimeMillis() < end) {
			Fault fault = faults[this.random.nextInt(faults.length)];
			inject(fault);
			// a burst after every fault: a lost last change shows only when the last write of a burst meets
			// a reload at the wrong moment, so the quick run needs many bursts to catch one
			this.writer.writeBurst(this.random);
			convergeAfter("the burst after fault " + this.injected.size());
			Processes.pause(1_000 + this.random.nextInt(1_500));
		}
	}

	private void inject(Fault fault) {
		long start = System.nanoTime();
		Map<String, Integer> leaders = currentLeaders();
		Workload target = pickTarget(leaders);
		boolean atLeader = leaders.containsValue(target.instance);
		String what;
		switch (fault) {
			case KILL_WORKLOAD -> {
				long from = System.nanoTime();
				target.kill9();
				Processes.pause(1_000 + this.random.nextInt(2_000));
				writeDuringFault(fault);
				target.start();
				healed(target, from, true, "the restart of w" + target.instance);
				what = "w" + target.instance;
			}
			case FREEZE_WORKLOAD -> {
				long from = System.nanoTime();
				target.freeze();
				Processes.pause(SESSION_MILLIS * 3 / 2 + this.random.nextInt((int) SESSION_MILLIS));
				writeDuringFault(fault);
				target.thaw();
				healed(target, from, false, "the thaw of w" + target.instance);
				what = "w" + target.instance;
			}
			case PARTITION_SHORT -> {
				long from = System.nanoTime();
				target.cut();
				Processes.pause(SESSION_MILLIS / 5 + this.random.nextInt((int) SESSION_MILLIS / 4));
				writeDuringFault(fault);
				target.heal();
				healed(target, from, false, "the heal of w" + target.instance + "'s short partition");
				what = "w" + target.instance;
				atLeader = false;
			}
			case PARTITION_LONG -> {
				long from = System.nanoTime();
				target.cut();
				Processes.pause(SESSION_MILLIS * 3 / 2 + this.random.nextInt((int) SESSION_MILLIS));
				writeDuringFault(fault);
				target.heal();
				healed(target, from, false, "the heal of w" + target.instance + "'s long partition");
				what = "w" + target.instance;
			}
			case KILL_ZK_LEADER, KILL_ZK_FOLLOWER -> {
				int zkLeader = this.ensemble.leader();
				int server = (fault == Fault.KILL_ZK_LEADER || zkLeader < 0) ? Math.max(zkLeader, 0)
						: (zkLeader + 1 + this.random.nextInt(2)) % 3;
				this.ensemble.kill(server);
				Processes.pause(1_500 + this.random.nextInt(1_500));
				// after the pause: the write waits for the ensemble to have a leader again
				writeDuringFault(fault);
				this.ensemble.start(server);
				this.ensemble.awaitAllServing(30_000);
				convergeAfter("the restart of zk" + (server + 1));
				what = "zk" + (server + 1);
				atLeader = false;
			}
			case EXPIRE_SESSION -> {
				// a server ends a session only after hearing nothing from it for a while: the client goes quiet
				// first, and the server ends the session at a moment of the campaign's choosing once the
				// client's lease (2/3 of the timeout) has run out, before its own timer would
				long from = System.nanoTime();
				target.cut();
				Processes.pause(SESSION_MILLIS * 2 / 3 + 300);
				writeDuringFault(fault);
				what = "w" + target.instance;
				if (!Sessions.expire(target.session(), this.ensemble.connectString())) {
					what += " (no session known yet)";
					atLeader = false;
				}
				target.heal();
				healed(target, from, false, "the heal of w" + target.instance + "'s expired session");
			}
			case CONFIG_BURST -> {
				this.writer.writeBurst(this.random);
				int good = this.writer.bursts.get(this.writer.bursts.size() - 1);
				convergeAfter("a burst of " + good + " good documents");
				what = ConfigWriter.ZNODE + " (" + good + " good documents)";
				atLeader = false;
			}
			default -> throw new IllegalStateException(fault.name());
		}
		Set<String> led = new TreeSet<>();
		if (atLeader) {
			leaders.forEach((group, instance) -> {
				if (instance == target.instance) {
					led.add(group);
				}
			});
		}
		this.injected.add(new Injected(fault, what, start, target.instance, led));
		System.out.printf("  fault %3d %-17s %s%n", this.injected.size(), fault, what);
		Processes.pause(SESSION_MILLIS);
	}

	/** The node now holds the last good document written: every instance up must show it within the bound. */
	private void convergeAfter(String after) {
		this.convergePoints.add(new ConvergePoint(this.writer.lastGood(), System.nanoTime(), after));
	}

	/**
	 * A good document written while a fault is on, just before it heals (so the node stays unchanged for a
	 * while after the burst before it): the instances the fault spares must show it at once, the one taken
	 * away once healed.
	 */
	private void writeDuringFault(Fault fault) {
		this.writer.writeGood();
		convergeAfter("a write during fault " + (this.injected.size() + 1) + " (" + fault + ")");
	}

	/** The target is back (restarted, thawed, reconnected): it must catch up with what it missed. */
	private void healed(Workload target, long fromNanos, boolean restarted, String what) {
		long now = System.nanoTime();
		this.outages.add(new Outage(target.instance, fromNanos, now, restarted));
		this.convergePoints.add(new ConvergePoint(this.writer.lastGood(), now, what));
	}

	/** A group's leader half the time (faults there matter most), otherwise any instance. */
	private Workload pickTarget(Map<String, Integer> leaders) {
		if (!leaders.isEmpty() && this.random.nextBoolean()) {
			List<Integer> leading = new ArrayList<>(leaders.values());
			return this.workloads.get(leading.get(this.random.nextInt(leading.size())) - 1);
		}
		return this.workloads.get(this.random.nextInt(WORKLOADS));
	}

	/** The instance that leads each group (the application's own election as {@code default}) now. */
	private Map<String, Integer> currentLeaders() {
		Map<Integer, List<String>> journals = new TreeMap<>();
		this.workloads.forEach((workload) -> journals.put(workload.instance, workload.journal()));
		return Leaders.current(journals);
	}

	/** Heal everything, bring every instance back, write a last burst and let it settle. */
	private void finish() {
		for (Workload workload : this.workloads) {
			workload.heal();
			if (!workload.isAlive()) {
				workload.start();
			}
		}
		this.ensemble.awaitAllServing(30_000);
		awaitReady(Duration.minutes(2));
		this.settledNanos = System.nanoTime();
		this.writer.writeBurst(this.random);
		convergeAfter("the last burst, every fault healed");
		long deadline = System.currentTimeMillis() + 30_000;
		while (System.currentTimeMillis() < deadline && !allOnLastVersion()) {
			Processes.pause(200);
		}
		long settled = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - this.settledNanos);
		Processes.pause(Math.max(SESSION_MILLIS, SETTLE_MILLIS - settled));
		for (Workload workload : this.workloads) {
			workload.stop();
		}
	}

	private boolean allOnLastVersion() {
		String suffix = " C " + this.writer.lastGood() + " " + this.writer.lastGood();
		return this.workloads.stream().allMatch((w) -> {
			List<String> lines = w.journal();
			for (int i = lines.size() - 1; i >= 0; i--) {
				if (lines.get(i).contains(" C ")) {
					return lines.get(i).endsWith(suffix);
				}
			}
			return false;
		});
	}

	private void awaitReady(Duration timeout) {
		long deadline = System.currentTimeMillis() + timeout.millis;
		while (System.currentTimeMillis() < deadline) {
			if (this.workloads.stream().allMatch(Workload::isReady)) {
				return;
			}
			Processes.pause(200);
		}
		throw new IllegalStateException("workloads not ready within " + timeout.millis / 1000 + " s");
	}

	private Report check(long seed, boolean quick, long elapsedNanos) {
		History history = new History(this.workloads);
		Map<Fault, Integer> counts = new EnumMap<>(Fault.class);
		this.injected.forEach((fault) -> counts.merge(fault.fault(), 1, Integer::sum));
		return new Report(seed, quick, TimeUnit.NANOSECONDS.toSeconds(elapsedNanos), counts, this.injected.size(),
				new LockChecker(history), new LeaderChecker(history, this.injected),
				new ConfigChecker(history, this.writer, this.workloads, this.convergePoints, this.outages),
				new ShardChecker(history, this.outages, this.settledNanos), crashDetectionLives(history), this.writer);
	}

	/** Process lives that journaled whether crash detection ran: {running, all}. */
	private static int[] crashDetectionLives(History history) {
		List<History.Entry> lives = history.of("CD");
		return new int[] { (int) lives.stream().filter((e) -> e.field(0).equals("true")).count(), lives.size() };
	}

	/**
	 * A fault as injected: what, where, when, the workload it hit (or the last one it was aimed at) and the
	 * groups that workload led when the fault took it away (empty when the fault does not take it away).
	 */
	record Injected(Fault fault, String target, long startNanos, int instance, Set<String> groupsLed) {
	}

	private record Duration(long millis) {

		static Duration minutes(int minutes) {
			return new Duration(minutes * 60_000L);
		}

	}

	/** Closes workloads, the writer and the ensemble however the campaign ends. */
	private static final class Closer implements AutoCloseable {

		final List<Workload> workloads = new ArrayList<>();

		ConfigWriter writer;

		Ensemble ensemble;

		@Override
		public void close() {
			this.workloads.forEach(Workload::close);
			if (this.writer != null) {
				this.writer.close();
			}
			if (this.ensemble != null) {
				this.ensemble.close();
			}
		}

	}

}
