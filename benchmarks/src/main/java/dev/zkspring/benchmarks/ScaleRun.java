package dev.zkspring.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;

/**
 * One N on one ensemble: start N instances, then measure in an order that keeps each figure clean —
 * idle cost first (nothing else on the ensemble but one idle writer), then the fleet view, fan-out
 * against the floor (rounds interleaved), one key contended, and leader failover last.
 */
final class ScaleRun {

	private static final String FLEET = "/fleet/" + ScaleInstance.APP;

	private final ScaleEnsemble ensemble;

	private final CuratorFramework writer;

	private final ScaleSettings settings;

	private final AtomicLong values = new AtomicLong();

	ScaleRun(ScaleEnsemble ensemble, CuratorFramework writer, ScaleSettings settings) {
		this.ensemble = ensemble;
		this.writer = writer;
		this.settings = settings;
	}

	ScaleRow measure(int n, ScaleRow.Idle baseline) throws Exception {
		ScaleRow row = new ScaleRow(this.ensemble.label(), n);
		String first = next();
		this.writer.setData().forPath(ScaleInstance.DOCUMENT, ScaleInstance.document(first));
		long heapBefore = usedHeap();
		List<ScaleInstance> instances = new ArrayList<>();
		long started = System.nanoTime();
		try {
			for (int i = 0; i < n; i++) {
				instances.add(new ScaleInstance(this.ensemble.connectString(), i));
			}
			row.startMillisPerInstance = (System.nanoTime() - started) / 1e6 / n;
			settle(instances, n);
			row.heapMiBPerInstance = (usedHeap() - heapBefore) / 1024.0 / 1024.0 / n;
			DetectorTraffic traffic = DetectorTraffic.of(instances);
			ScaleRow.Idle idle = idle(this.ensemble, this.settings.idleWindow());
			row.idle = idle.minus(baseline).per(n);
			row.detection = traffic.atRest(instances);
			fleet(row, instances, n);
			try (ScaleFloor floor = new ScaleFloor(this.ensemble.connectString(), n)) {
				fanOut(row, instances, floor, n);
				ScaleLocks.contend(row, instances, floor, this.settings.lockSlice());
			}
			failover(row, instances);
		}
		finally {
			instances.forEach(ScaleInstance::close);
		}
		return row;
	}

	/**
	 * Fan-out against the floor alone ({@code --scale-fanout-only}): start N instances, let them settle,
	 * measure {@code rounds} rounds of interleaved samples; nothing else runs on the ensemble meanwhile.
	 */
	List<ScaleRow> measureFanOut(int n, int rounds) throws Exception {
		String first = next();
		this.writer.setData().forPath(ScaleInstance.DOCUMENT, ScaleInstance.document(first));
		List<ScaleInstance> instances = new ArrayList<>();
		List<ScaleRow> rows = new ArrayList<>();
		try {
			for (int i = 0; i < n; i++) {
				instances.add(new ScaleInstance(this.ensemble.connectString(), i));
			}
			settle(instances, n);
			try (ScaleFloor floor = new ScaleFloor(this.ensemble.connectString(), n)) {
				for (int round = 0; round < rounds; round++) {
					ScaleRow row = new ScaleRow(this.ensemble.label(), n);
					fanOut(row, instances, floor, n);
					rows.add(row);
				}
			}
		}
		finally {
			instances.forEach(ScaleInstance::close);
		}
		return rows;
	}

	/** Every instance has the document, the fleet shows all N, one of them leads. */
	private void settle(List<ScaleInstance> instances, int n) throws Exception {
		String value = instances.get(0).value();
		await("the fleet to settle at N=" + n, () -> instances.stream().allMatch((i) -> value.equals(i.value()))
				&& children() == n && instances.stream().filter((i) -> i.election().isLeader()).count() == 1);
		// the fleet publisher's rechecks and the elections' confirming reads end within a few seconds
		TimeUnit.SECONDS.sleep(2);
	}

	static ScaleRow.Idle idle(ScaleEnsemble ensemble, Duration window) throws Exception {
		var before = ensemble.mntr();
		long start = System.nanoTime();
		TimeUnit.NANOSECONDS.sleep(window.toNanos());
		var after = ensemble.mntr();
		double seconds = (System.nanoTime() - start) / 1e9;
		return new ScaleRow.Idle((delta(after, before, "zk_packets_received")) / seconds,
				(delta(after, before, "zk_bytes_received_count")) / seconds,
				after.getOrDefault("zk_watch_count", Double.NaN), after.getOrDefault("zk_num_alive_connections", Double.NaN));
	}

	private static double delta(java.util.Map<String, Double> after, java.util.Map<String, Double> before, String key) {
		return after.getOrDefault(key, Double.NaN) - before.getOrDefault(key, Double.NaN);
	}

	private void fleet(ScaleRow row, List<ScaleInstance> instances, int n) throws Exception {
		List<Long> reads = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			long start = System.nanoTime();
			int size = instances.get(0).fleet().instances().size();
			reads.add(System.nanoTime() - start);
			if (size != n) {
				throw new IllegalStateException("the fleet view shows " + size + " instances of " + n);
			}
		}
		row.fleetReadMillis = reads.stream().sorted().toList().get(2) / 1e6;
		long versions = fleetVersions();
		String value = next();
		long start = System.nanoTime();
		this.writer.setData().forPath(ScaleInstance.DOCUMENT, ScaleInstance.document(value));
		await("the change to reach every instance", () -> instances.stream().allMatch((i) -> value.equals(i.value())));
		TimeUnit.SECONDS.sleep(2);
		long written = fleetVersions() - versions;
		row.fleetWritesPerInstancePerChange = written / (double) n;
		row.fleetWritesPerSecondDuringChange = written / ((System.nanoTime() - start) / 1e9);
		String own = FLEET + "/i-0";
		int before = this.writer.checkExists().forPath(own).getVersion();
		long burst = System.nanoTime();
		int locks = 0;
		while (System.nanoTime() - burst < TimeUnit.SECONDS.toNanos(1)) {
			instances.get(0).lockOnce("burst", Duration.ofSeconds(5));
			locks++;
		}
		TimeUnit.MILLISECONDS.sleep(500);
		row.lockBurstOps = locks;
		row.fleetWritesPerSecondLockBurst = (this.writer.checkExists().forPath(own).getVersion() - before)
				/ ((System.nanoTime() - burst) / 1e9);
	}

	private void fanOut(ScaleRow row, List<ScaleInstance> instances, ScaleFloor floor, int n) throws Exception {
		this.writer.create().orSetData().creatingParentsIfNeeded().forPath(ScaleFloor.PATH, ConfigBenchmarks.bytes("0"));
		int samples = this.settings.fanOutSamples(n);
		long[] ours = new long[samples];
		long[] bare = new long[samples];
		for (int s = -1; s < samples; s++) {
			// the first pair warms up; the order within each pair alternates
			boolean oursFirst = (s % 2 == 0);
			long a = oursFirst ? fanOutOurs(instances) : fanOutFloor(floor, n);
			long b = oursFirst ? fanOutFloor(floor, n) : fanOutOurs(instances);
			if (s >= 0) {
				ours[s] = oursFirst ? a : b;
				bare[s] = oursFirst ? b : a;
			}
		}
		row.fanOut = Stats.of(ours);
		row.floor = Stats.of(bare);
	}

	private long fanOutOurs(List<ScaleInstance> instances) throws Exception {
		String value = next();
		return timeToAll((v) -> this.writer.setData().forPath(ScaleInstance.DOCUMENT, ScaleInstance.document(v)),
				instances.size(), (i) -> instances.get(i).value(), value);
	}

	private long fanOutFloor(ScaleFloor floor, int n) throws Exception {
		String value = next();
		return timeToAll((v) -> this.writer.setData().forPath(ScaleFloor.PATH, ConfigBenchmarks.bytes(v)), n,
				floor::value, value);
	}

	/** Nanoseconds from the write until the last of n readers shows the value. */
	static long timeToAll(ConfigBenchmarks.Writer write, int n, IntFunction<String> reader, String value) throws Exception {
		boolean[] done = new boolean[n];
		int left = n;
		long start = System.nanoTime();
		write.write(value);
		long last = start;
		while (left > 0) {
			for (int i = 0; i < n; i++) {
				if (!done[i] && value.equals(reader.apply(i))) {
					done[i] = true;
					left--;
					last = System.nanoTime();
				}
			}
			if (left > 0) {
				if (System.nanoTime() - start > TimeUnit.SECONDS.toNanos(60)) {
					throw new IllegalStateException(left + " of " + n + " readers did not see the change within 60 s");
				}
				TimeUnit.MICROSECONDS.sleep(100);
			}
		}
		return last - start;
	}

	private void failover(ScaleRow row, List<ScaleInstance> instances) throws Exception {
		ScaleInstance leader = instances.stream().filter((i) -> i.election().isLeader()).findFirst().orElseThrow();
		long epoch = leader.election().epoch();
		double before = this.ensemble.metric("zk_packets_received");
		long start = System.nanoTime();
		ScaleEnsemble.expireSession(leader.client());
		// with N = 1 the new leader is the same instance on its new session: a later epoch either way
		await("a new leader", () -> instances.stream().anyMatch((i) -> i.election().isLeader() && i.election().epoch() > epoch));
		row.failoverMillis = (System.nanoTime() - start) / 1e6;
		TimeUnit.SECONDS.sleep(1);
		row.failoverRequests = this.ensemble.metric("zk_packets_received") - before;
		await("exactly one leader", () -> instances.stream().filter((i) -> i.election().isLeader()).count() == 1);
	}

	private long fleetVersions() throws Exception {
		long sum = 0;
		for (String child : this.writer.getChildren().forPath(FLEET)) {
			Stat stat = this.writer.checkExists().forPath(FLEET + "/" + child);
			sum += (stat != null) ? stat.getVersion() : 0;
		}
		return sum;
	}

	private int children() throws Exception {
		Stat stat = this.writer.checkExists().forPath(FLEET);
		return (stat != null) ? stat.getNumChildren() : 0;
	}

	private String next() {
		return String.valueOf(this.values.incrementAndGet());
	}

	static long usedHeap() throws InterruptedException {
		Runtime runtime = Runtime.getRuntime();
		for (int i = 0; i < 3; i++) {
			System.gc();
			TimeUnit.MILLISECONDS.sleep(100);
		}
		return runtime.totalMemory() - runtime.freeMemory();
	}

	static void await(String what, Check check) throws Exception {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
		while (!check.holds()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("gave up waiting for " + what + " after 120 s");
			}
			TimeUnit.MILLISECONDS.sleep(5);
		}
	}

	@FunctionalInterface
	interface Check {

		boolean holds() throws Exception;

	}

}
