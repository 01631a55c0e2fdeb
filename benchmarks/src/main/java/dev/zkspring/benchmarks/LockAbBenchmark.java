package dev.zkspring.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code @ZkLock} of this build against {@code @ZkLock} of an earlier build (its
 * zk-spring-autoconfigure jar), both in this JVM, each in a class loader of its own, on the same server,
 * interleaved round by round like every other table: so the ratio is free of the machine's drift
 * between two runs.
 */
final class LockAbBenchmark {

	/** This build again, loaded the ordinary way: what the class loaders of the other two rows cost, if anything. */
	private static final String DIRECT = "zk-spring @ZkLock, this build, application class loader";

	private final String connectString;

	private final Clients clients;

	private final Harness harness;

	private final Report report;

	private final Path baselineJar;

	private final String current;

	private final String previous;

	LockAbBenchmark(Clients clients, Harness harness, Report report, Path baselineJar, String baselineLabel) {
		this.connectString = clients.connectString();
		this.clients = clients;
		this.harness = harness;
		this.report = report;
		this.baselineJar = baselineJar;
		this.current = "zk-spring @ZkLock, this build";
		this.previous = "zk-spring @ZkLock, " + baselineLabel;
	}

	void run() throws Exception {
		this.report.section("Locks: this build against the previous lock, same run",
				"Both `@ZkLock` rows run in this JVM, each in a class loader of its own holding a whole classpath "
						+ "(Spring, Curator, ZooKeeper client) with one zk-spring-autoconfigure jar: this build's, or "
						+ "`" + this.baselineJar.getFileName() + "` built from the earlier commit. Same server, "
						+ "clients of their own, rounds interleaved. `new ÷ old` is the ÷ column of the earlier build.");
		try (IsolatedZkSpring now = IsolatedZkSpring.of(null); IsolatedZkSpring before = IsolatedZkSpring.of(this.baselineJar)) {
			Map<String, Contender> uncontended = new LinkedHashMap<>();
			uncontended.put(this.current, single(this.current, now.open(this.connectString, 1, "ab-uncontended-new")));
			uncontended.put(this.previous, single(this.previous, before.open(this.connectString, 1, "ab-uncontended-old")));
			LockLibrary.Locks direct = ZkSpringLocks.ANNOTATION.open(this.clients.connect());
			uncontended.put(DIRECT, LockBenchmarks.contender(DIRECT, () -> direct.acquireRelease("ab-uncontended-direct")));
			LockLibrary.Locks raw = LockLibrary.RAW_CURATOR.open(this.clients.connect());
			uncontended.put(LockLibrary.RAW_CURATOR.name(),
					LockBenchmarks.contender(LockLibrary.RAW_CURATOR.name(), () -> raw.acquireRelease("ab-uncontended")));
			this.report.latency("Uncontended acquire + release", this.harness.latency(new ArrayList<>(uncontended.values())),
					List.of(this.previous, LockLibrary.RAW_CURATOR.name()));
			oneKey("One key × 8 threads in one JVM", now, before, 1, 8);
			oneKey("One key × 2 clients × 8 threads", now, before, 2, 8);
		}
	}

	private void oneKey(String scenario, IsolatedZkSpring now, IsolatedZkSpring before, int clientCount,
			int threadsPerClient) throws Exception {
		String key = "ab-one-key-" + clientCount;
		List<Contender> contenders = List.of(
				spread(this.current, now.open(this.connectString, clientCount, key + "-new")),
				spread(this.previous, before.open(this.connectString, clientCount, key + "-old")));
		this.report.throughput(scenario, this.harness.throughput(contenders, clientCount * threadsPerClient),
				List.of(this.previous));
	}

	private static Contender single(String name, List<Callable<Object>> ops) {
		Callable<Object> op = ops.get(0);
		return LockBenchmarks.contender(name, op::call);
	}

	/** Each thread keeps to one client, the threads spread evenly over the clients. */
	private static Contender spread(String name, List<Callable<Object>> ops) {
		AtomicInteger next = new AtomicInteger();
		ThreadLocal<Callable<Object>> mine = ThreadLocal.withInitial(() -> ops.get(next.getAndIncrement() % ops.size()));
		return LockBenchmarks.contender(name, () -> mine.get().call());
	}

}
