package dev.zkspring.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/** The lock scenarios of the benchmark issue, each library on clients of its own. */
final class LockBenchmarks {

	private final Clients clients;

	private final Harness harness;

	private final Report report;

	private final List<LockLibrary> libraries;

	private final List<String> baselines = List.of(LockLibrary.RAW_CURATOR.name(),
			LockLibrary.SPRING_INTEGRATION.name());

	LockBenchmarks(Clients clients, Harness harness, Report report, List<LockLibrary> libraries) {
		this.clients = clients;
		this.harness = harness;
		this.report = report;
		this.libraries = libraries;
	}

	void run() throws Exception {
		this.report.section("Locks", "Each library takes its locks through clients of its own, on the same server. "
				+ "\"2 clients\" means two sessions, as two JVMs would have.");
		uncontended();
		busyTryOnce();
		oneKey("One key × 8 threads in one JVM", 1, 8);
		oneKey("One key × 2 clients × 8 threads", 2, 8);
	}

	private void uncontended() throws Exception {
		Map<String, Contender> contenders = open("Uncontended acquire + release", true, 1, (locks) -> () -> locks
			.get(0).acquireRelease("uncontended"));
		this.report.latency("Uncontended acquire + release", this.harness.latency(list(contenders)), this.baselines);
	}

	private void busyTryOnce() throws Exception {
		String scenario = "Try once on a busy key (held by another session)";
		Map<String, Contender> contenders = new LinkedHashMap<>();
		for (LockLibrary library : this.libraries) {
			try {
				library.open(this.clients.connect()).hold("busy");
				LockLibrary.Locks locks = library.open(this.clients.connect());
				contenders.put(library.name(), contender(library.name(), () -> {
					if (locks.tryOnce("busy")) {
						throw new IllegalStateException(library.name() + " acquired a key another session holds");
					}
				}));
			}
			catch (Exception ex) {
				this.report.failed(scenario, library.name(), ex);
			}
		}
		List<String> withShedLock = new ArrayList<>(this.baselines);
		withShedLock.add(LockLibrary.SHEDLOCK.name());
		this.report.latency(scenario, this.harness.latency(list(contenders)), withShedLock);
	}

	private void oneKey(String scenario, int clientCount, int threadsPerClient) throws Exception {
		Map<String, Contender> contenders = open(scenario, true, clientCount, (locks) -> {
			AtomicInteger next = new AtomicInteger();
			ThreadLocal<LockLibrary.Locks> mine = ThreadLocal
				.withInitial(() -> locks.get(next.getAndIncrement() % locks.size()));
			return () -> mine.get().acquireRelease("one-key");
		});
		this.report.throughput(scenario, this.harness.throughput(list(contenders), clientCount * threadsPerClient),
				this.baselines);
	}

	private Map<String, Contender> open(String scenario, boolean blockingOnly, int clientCount, OpFactory factory) {
		Map<String, Contender> contenders = new LinkedHashMap<>();
		for (LockLibrary library : this.libraries) {
			if (blockingOnly && !library.blocking()) {
				continue;
			}
			try {
				List<LockLibrary.Locks> locks = new ArrayList<>();
				for (int i = 0; i < clientCount; i++) {
					locks.add(library.open(this.clients.connect()));
				}
				contenders.put(library.name(), contender(library.name(), factory.op(locks)));
			}
			catch (Exception ex) {
				this.report.failed(scenario, library.name(), ex);
			}
		}
		return contenders;
	}

	private static List<Contender> list(Map<String, Contender> contenders) {
		return new ArrayList<>(contenders.values());
	}

	static Contender contender(String name, Op op) {
		return new Contender() {
			public String name() {
				return name;
			}

			public void op() throws Exception {
				op.run();
			}
		};
	}

	@FunctionalInterface
	interface Op {

		void run() throws Exception;

	}

	@FunctionalInterface
	private interface OpFactory {

		Op op(List<LockLibrary.Locks> locks) throws Exception;

	}

}
