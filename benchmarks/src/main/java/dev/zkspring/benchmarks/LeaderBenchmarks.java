package dev.zkspring.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;

/**
 * Leadership: how long between the leader stepping down (or losing its session) and the successor
 * knowing it leads. Each sample is one handover between two participants with sessions of their own.
 */
final class LeaderBenchmarks {

	private final Clients clients;

	private final Report report;

	private final Settings settings;

	private final List<LeaderContender> contenders = new ArrayList<>();

	private final int serverPort;

	LeaderBenchmarks(Clients clients, int serverPort, Report report, Settings settings) {
		this.clients = clients;
		this.serverPort = serverPort;
		this.report = report;
		this.settings = settings;
		this.contenders.add(new BareLatch());
		this.contenders.add(new ZkSpringLeader());
	}

	void run() throws Exception {
		this.report.section("Leadership", "Two participants with sessions of their own; a sample is one handover, "
				+ "from the leader's stop (or its session's expiry, injected at the server) to the successor "
				+ "learning it leads. " + this.settings.handovers() + " handovers per contender, interleaved, after "
				+ WARMUP_HANDOVERS + " unmeasured ones.");
		measure("Graceful handover", false);
		measure("Failover after session expiry", true);
		measureKill();
	}

	/**
	 * The leader's process dies: its connection goes and nobody closes its session, so the successor
	 * waits for the session timeout ({@value #KILL_SESSION_TIMEOUT_MS} ms here), and the server's tick.
	 */
	private void measureKill() throws Exception {
		int samples = this.settings.quick() ? 2 : 5;
		Map<String, long[]> nanos = new LinkedHashMap<>();
		this.contenders.forEach((contender) -> nanos.put(contender.name(), new long[samples]));
		for (int i = 0; i < samples; i++) {
			for (LeaderContender contender : this.contenders) {
				nanos.get(contender.name())[i] = killOnce(contender, i);
			}
		}
		Map<String, Stats> stats = new LinkedHashMap<>();
		nanos.forEach((name, values) -> stats.put(name, Stats.of(values)));
		this.report.latency("Failover after the leader's process is killed (session timeout "
				+ KILL_SESSION_TIMEOUT_MS + " ms)", stats, List.of(this.contenders.get(0).name()));
	}

	private long killOnce(LeaderContender contender, int sample) throws Exception {
		String path = "/bench-kill/" + contender.getClass().getSimpleName() + "-" + sample;
		try (KillableProxy proxy = new KillableProxy(this.serverPort)) {
			Participant victim = contender.participant(
					this.clients.connect(proxy.connectString(), KILL_SESSION_TIMEOUT_MS), path, "victim");
			await(victim::isLeader);
			Participant successor = contender.participant(
					this.clients.connect(this.clients.connectString(), KILL_SESSION_TIMEOUT_MS), path, "successor");
			await(successor::joined);
			long start = System.nanoTime();
			proxy.kill();
			long took = successor.granted().get(60, TimeUnit.SECONDS) - start;
			successor.close();
			victim.close();
			return took;
		}
	}

	private static void await(BooleanSupplier condition) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("timed out waiting for the election");
			}
			TimeUnit.MILLISECONDS.sleep(5);
		}
	}

	static final int KILL_SESSION_TIMEOUT_MS = 4_000;

	/** Handovers per contender before the measured ones, so class loading and JIT are out of the samples. */
	private static final int WARMUP_HANDOVERS = 2;

	/** One participant of an election, on a client of its own. */
	interface Participant {

		boolean isLeader();

		/** Whether its node is in the election, so it is next in line. */
		boolean joined();

		/** Completes with {@code System.nanoTime()} when it is granted leadership. */
		CompletableFuture<Long> granted();

		void close() throws Exception;

	}

	private void measure(String scenario, boolean expire) throws Exception {
		Map<String, long[]> samples = new LinkedHashMap<>();
		for (LeaderContender contender : this.contenders) {
			samples.put(contender.name(), new long[this.settings.handovers()]);
			contender.start(this.clients);
		}
		for (int i = -WARMUP_HANDOVERS; i < this.settings.handovers(); i++) {
			for (LeaderContender contender : this.contenders) {
				long nanos = expire ? contender.failover() : contender.handover();
				if (i >= 0) {
					samples.get(contender.name())[i] = nanos;
				}
			}
		}
		for (LeaderContender contender : this.contenders) {
			contender.stop();
		}
		Map<String, Stats> stats = new LinkedHashMap<>();
		samples.forEach((name, nanos) -> stats.put(name, Stats.of(nanos)));
		this.report.latency(scenario, stats, List.of(this.contenders.get(0).name()));
	}

	/** One way of electing a leader between two participants. */
	interface LeaderContender {

		String name();

		void start(Clients clients) throws Exception;

		/** The leader steps down gracefully; returns nanos until the other participant leads. */
		long handover() throws Exception;

		/** The leader's session expires; returns nanos until the other participant leads. */
		long failover() throws Exception;

		void stop() throws Exception;

		/** A participant on the given client, for the kill scenario. */
		Participant participant(CuratorFramework client, String path, String id) throws Exception;

	}

	/** Curator's LeaderLatch used directly: the floor any leader-election wrapper adds to. */
	static final class BareLatch implements LeaderContender {

		private final CuratorFramework[] clients = new CuratorFramework[2];

		private final LeaderLatch[] latches = new LeaderLatch[2];

		private final List<CompletableFuture<Long>> elected = new ArrayList<>(List.of(new CompletableFuture<>(),
				new CompletableFuture<>()));

		public String name() {
			return "bare Curator LeaderLatch";
		}

		public void start(Clients clients) throws Exception {
			for (int i = 0; i < 2; i++) {
				this.clients[i] = clients.connect();
				join(i);
			}
			leader();
		}

		private void join(int i) throws Exception {
			this.elected.set(i, new CompletableFuture<>());
			LeaderLatch latch = new LeaderLatch(this.clients[i], "/bench-latch", "p" + i);
			CompletableFuture<Long> mine = this.elected.get(i);
			latch.addListener(new LeaderLatchListener() {
				public void isLeader() {
					mine.complete(System.nanoTime());
				}

				public void notLeader() {
				}
			});
			latch.start();
			this.latches[i] = latch;
		}

		private int leader() throws Exception {
			for (int attempt = 0; attempt < 200; attempt++) {
				for (int i = 0; i < 2; i++) {
					if (this.latches[i].hasLeadership()) {
						return i;
					}
				}
				TimeUnit.MILLISECONDS.sleep(10);
			}
			throw new IllegalStateException("no leader elected");
		}

		public long handover() throws Exception {
			int leader = leader();
			int other = 1 - leader;
			long start = System.nanoTime();
			this.latches[leader].close();
			long took = this.elected.get(other).get(30, TimeUnit.SECONDS) - start;
			join(leader);
			return took;
		}

		public long failover() throws Exception {
			int leader = leader();
			int other = 1 - leader;
			long start = System.nanoTime();
			this.clients[leader].getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
			long took = this.elected.get(other).get(60, TimeUnit.SECONDS) - start;
			this.latches[leader].close();
			join(leader);
			return took;
		}

		public void stop() throws Exception {
			for (LeaderLatch latch : this.latches) {
				latch.close();
			}
		}

		public Participant participant(CuratorFramework client, String path, String id) throws Exception {
			CompletableFuture<Long> granted = new CompletableFuture<>();
			LeaderLatch latch = new LeaderLatch(client, path, id);
			latch.addListener(new LeaderLatchListener() {
				public void isLeader() {
					granted.complete(System.nanoTime());
				}

				public void notLeader() {
				}
			});
			latch.start();
			return new Participant() {
				public boolean isLeader() {
					return latch.hasLeadership();
				}

				public boolean joined() {
					return latch.getOurPath() != null;
				}

				public CompletableFuture<Long> granted() {
					return granted;
				}

				public void close() throws Exception {
					latch.close(LeaderLatch.CloseMode.SILENT);
					client.close();
				}
			};
		}

	}

}
