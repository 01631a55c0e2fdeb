package dev.zkspring.benchmarks;

import java.io.BufferedReader;
import java.io.File;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import org.apache.curator.framework.CuratorFramework;

import dev.zkspring.client.SessionLease;
import dev.zkspring.crash.CrashDetectionSettings;
import dev.zkspring.crash.CrashDetector;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * Issue 42: {@code kill -9} of a leader (of a lock holder) in a JVM of its own, and how long until the
 * successor in this JVM leads (the waiter holds), with crash detection on and off, on one server in one
 * run; then the idle cost of detection for N instances in one latch line.
 * <p>
 * Over 300 lines because the four measured scenarios (leader and lock holder, detection on and off) share one harness of processes and clocks.
 */
final class CrashBenchmarks {

	static final int SESSION_TIMEOUT_MS = 4_000;

	private final Clients clients;

	private final Report report;

	private final Settings settings;

	private final String classpath;

	CrashBenchmarks(Clients clients, Report report, Settings settings) throws Exception {
		this.clients = clients;
		this.report = report;
		this.settings = settings;
		this.classpath = String.join(File.pathSeparator,
				IsolatedZkSpring.classpath().stream().map(Path::toString).toList());
	}

	void run() throws Exception {
		int on = this.settings.quick() ? 3 : 20;
		int off = this.settings.quick() ? 1 : 4;
		this.report.section("Crash detection",
				"A leader (a lock holder) in a JVM of its own is killed with `kill -9`; a sample is the time from the "
						+ "signal to the successor in the benchmark's JVM learning it leads (the waiter entering the key). "
						+ "Session timeout " + SESSION_TIMEOUT_MS + " ms, crash detection's reconnect bound 100 ms, on "
						+ "loopback; detection on and off interleaved (" + on + " and " + off + " samples).");
		for (String mode : List.of("leader", "lock")) {
			Map<String, List<Long>> samples = new LinkedHashMap<>();
			samples.put("detection on", new ArrayList<>());
			samples.put("detection off", new ArrayList<>());
			for (int i = 0; i < on; i++) {
				samples.get("detection on").add(once(mode, true, i));
				if (i < off) {
					samples.get("detection off").add(once(mode, false, i));
				}
			}
			Map<String, Stats> stats = new LinkedHashMap<>();
			StringBuilder ratios = new StringBuilder("÷ session timeout (p50 / p99): ");
			samples.forEach((name, values) -> {
				Stats s = Stats.of(values.stream().mapToLong(Long::longValue).toArray());
				stats.put(name, s);
				ratios.append(name).append(' ')
					.append(String.format(java.util.Locale.ROOT, "%.3f× / %.3f×; ", s.p50() / 1_000.0 / SESSION_TIMEOUT_MS,
							s.p99() / 1_000.0 / SESSION_TIMEOUT_MS));
			});
			this.report.latency(("leader".equals(mode) ? "kill -9 of the leader → the successor leads"
					: "kill -9 of a lock holder → the waiter in another JVM holds"), stats, List.of("detection off"));
			this.report.note(ratios.toString().trim());
		}
		// a server of its own without the 60-connections-per-address limit: every instance connects from 127.0.0.1
		try (ScaleEnsemble server = ScaleEnsemble.oneServer()) {
			for (int n : this.settings.quick() ? new int[] { 10 } : new int[] { 10, 200 }) {
				try {
					idle(server.connectString(), n);
				}
				catch (Exception ex) {
					this.report.failed("Idle cost of crash detection, N = " + n, "zk-spring", ex);
				}
			}
		}
	}

	/** One kill; nanoseconds from the signal to the survivor acting. */
	private long once(String mode, boolean detection, int sample) throws Exception {
		String target = ("leader".equals(mode) ? "/bench-crash/" : "") + mode + "-" + detection + "-" + sample;
		Process victim = start(mode, target, detection);
		List<AutoCloseable> closing = new ArrayList<>();
		try {
			CuratorFramework client = this.clients.connect(this.clients.connectString(), SESSION_TIMEOUT_MS);
			closing.add(client);
			SessionLease lease = SessionLease.start(client);
			closing.add(lease);
			CrashDetector detector = new CrashDetector(client, CrashDetectionSettings.defaults(false), () -> "survivor");
			if (detection) {
				detector.start();
				closing.add(detector::stop);
			}
			BooleanSupplier acted;
			BooleanSupplier ready;
			if ("leader".equals(mode)) {
				ZkLeaderElection election = new ZkLeaderElection(client, lease, target, () -> "survivor",
						Duration.ofSeconds(1), Duration.ZERO);
				closing.add(detector.follow(target, election::latchNode));
				election.start();
				closing.add(election::stop);
				acted = election::isLeader;
				ready = () -> election.participants().size() == 2;
			}
			else {
				ZkLockTemplate template = new ZkLockTemplate(client, lease,
						new ZkLockTemplate.Settings(CrashVictimMain.LOCK_ROOT, Duration.ofSeconds(3), 16, false), (event) -> {
						});
				closing.add(template::destroy);
				template.watchPeersWith(detection ? detector : dev.zkspring.client.PeerWatch.NONE);
				AtomicLong entered = new AtomicLong();
				CountDownLatch started = new CountDownLatch(1);
				Thread waiter = new Thread(() -> {
					started.countDown();
					template.execute(target, Duration.ofSeconds(30), () -> {
						entered.set(System.nanoTime());
						return null;
					});
				});
				waiter.setDaemon(true);
				waiter.start();
				started.await();
				acted = () -> entered.get() != 0;
				ready = () -> template.getHeldLocks().isEmpty();
			}
			await(ready);
			if (detection) {
				await(() -> detector.describe().get("watching") instanceof List<?> list && list.size() == 1
						&& list.get(0) instanceof Map<?, ?> peer && "CONNECTED".equals(peer.get("state")));
			}
			else {
				// the waiter's node is behind the holder's before the kill
				TimeUnit.MILLISECONDS.sleep(200);
			}
			long killed = System.nanoTime();
			victim.destroyForcibly();
			long deadline = killed + TimeUnit.MILLISECONDS.toNanos(SESSION_TIMEOUT_MS * 4L);
			while (!acted.getAsBoolean()) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("no failover after kill -9 within 4× the session timeout");
				}
				TimeUnit.MICROSECONDS.sleep(500);
			}
			return System.nanoTime() - killed;
		}
		finally {
			victim.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			for (int i = closing.size() - 1; i >= 0; i--) {
				try {
					closing.get(i).close();
				}
				catch (Exception ex) {
					// closing anyway
				}
			}
		}
	}

	private Process start(String mode, String target, boolean detection) throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process process = new ProcessBuilder(java, "-Xmx96m", "-XX:TieredStopAtLevel=1", "-cp", this.classpath,
				CrashVictimMain.class.getName(), this.clients.connectString(), Integer.toString(SESSION_TIMEOUT_MS), mode,
				target, detection ? "on" : "off")
			.redirectErrorStream(true)
			.start();
		BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		String line;
		while ((line = reader.readLine()) != null) {
			if (line.startsWith("READY")) {
				Thread drain = new Thread(() -> {
					try {
						while (reader.readLine() != null) {
							// keep the pipe from filling
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
		throw new IllegalStateException("the victim JVM ended before it was ready");
	}

	/**
	 * N instances (a session, an election and, when on, a detector each) in one latch line, idle: the
	 * detector's connections and threads per instance, and loopback bytes per second with it on and off.
	 */
	private void idle(String connectString, int n) throws Exception {
		long[] bytesPerSecond = new long[2];
		int connections = 0;
		int threadsOn = 0;
		int threadsOff = 0;
		for (boolean detection : new boolean[] { true, false }) {
			List<AutoCloseable> closing = new ArrayList<>();
			int before = Thread.activeCount();
			List<CrashDetector> detectors = new ArrayList<>();
			try {
				String latch = "/bench-crash-idle/n" + n + "-" + detection;
				List<ZkLeaderElection> elections = new ArrayList<>();
				for (int i = 0; i < n; i++) {
					CuratorFramework client = this.clients.connect(connectString, SESSION_TIMEOUT_MS);
					closing.add(client);
					SessionLease lease = SessionLease.start(client);
					closing.add(lease);
					ZkLeaderElection election = new ZkLeaderElection(client, lease, latch, () -> "idle",
							Duration.ofSeconds(1), Duration.ZERO);
					if (detection) {
						CrashDetector detector = new CrashDetector(client, CrashDetectionSettings.defaults(false), () -> "idle");
						detector.start();
						closing.add(detector::stop);
						closing.add(detector.follow(latch, election::latchNode));
						detectors.add(detector);
					}
					election.start();
					closing.add(election::stop);
					elections.add(election);
				}
				await(() -> elections.get(0).participants().size() == n);
				if (detection) {
					await(() -> detectors.stream().mapToInt((d) -> (Integer) d.describe().get("inbound")).sum() == ((n > 1) ? n : 0));
					connections = detectors.stream().mapToInt((d) -> (Integer) d.describe().get("inbound")).sum();
				}
				TimeUnit.SECONDS.sleep(2);
				int threads = Thread.activeCount() - before;
				long startBytes = loopbackBytes();
				long start = System.nanoTime();
				TimeUnit.SECONDS.sleep(this.settings.quick() ? 3 : 10);
				bytesPerSecond[detection ? 0 : 1] = (loopbackBytes() - startBytes) * 1_000_000_000L
						/ (System.nanoTime() - start);
				if (detection) {
					threadsOn = threads;
				}
				else {
					threadsOff = threads;
				}
			}
			finally {
				for (int i = closing.size() - 1; i >= 0; i--) {
					try {
						closing.get(i).close();
					}
					catch (Exception ex) {
						// closing anyway
					}
				}
			}
		}
		this.report.note("Idle, N = " + n + " instances in one latch line: " + connections + " detector connections ("
				+ String.format(java.util.Locale.ROOT, "%.2f", connections / (double) n) + " per instance, none sent a byte: "
				+ "the listener writes nothing and keep-alive is off); threads " + threadsOn + " with detection, "
				+ threadsOff + " without (" + String.format(java.util.Locale.ROOT, "%.1f", (threadsOn - threadsOff) / (double) n)
				+ " more per instance); loopback traffic " + bytesPerSecond[0] + " B/s with detection, " + bytesPerSecond[1]
				+ " B/s without (ZooKeeper's pings, the same in both; "
				+ String.format(java.util.Locale.ROOT, "%.1f", (bytesPerSecond[0] - bytesPerSecond[1]) / (double) n)
				+ " B/s per instance of difference).");
	}

	/** Bytes received on the loopback interface so far (Linux), 0 elsewhere. */
	private static long loopbackBytes() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/net/dev"))) {
				String trimmed = line.trim();
				if (trimmed.startsWith("lo:")) {
					return Long.parseLong(trimmed.substring(3).trim().split("\\s+")[0]);
				}
			}
		}
		catch (Exception ex) {
			// not Linux
		}
		return 0;
	}

	private static void await(BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("timed out");
			}
			TimeUnit.MILLISECONDS.sleep(5);
		}
	}

}
