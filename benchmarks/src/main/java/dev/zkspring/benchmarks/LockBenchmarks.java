package dev.zkspring.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.curator.framework.CuratorFramework;

/** The lock scenarios of the benchmark issue, each library on clients of its own. */
final class LockBenchmarks {

	private final Clients clients;

	private final Harness harness;

	private final Report report;

	private final List<LockLibrary> libraries;

	private final List<String> baselines = List.of(LockLibrary.RAW_CURATOR.name(),
			LockLibrary.SPRING_INTEGRATION.name());

	/** One way, so a round trip through the proxy costs 0.5 ms more than on loopback. */
	static final Duration LAN_DELAY = Duration.ofNanos(250_000);

	private final int serverPort;

	LockBenchmarks(Clients clients, int serverPort, Harness harness, Report report, List<LockLibrary> libraries) {
		this.clients = clients;
		this.serverPort = serverPort;
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
		overLan();
	}

	private void uncontended() throws Exception {
		String scenario = "Uncontended acquire + release";
		List<LockLibrary> withFloor = new ArrayList<>(blocking(this.libraries));
		withFloor.addAll(List.of(BareZooKeeper.PIPELINED, BareZooKeeper.SEQUENTIAL));
		Map<String, Contender> contenders = open(scenario, withFloor, 1, this.clients::connect,
				(locks) -> () -> locks.get(0).acquireRelease("uncontended"));
		this.report.latency(scenario, this.harness.latency(list(contenders)), this.baselines);
		this.report.note("The two bare ZooKeeper rows are no locks: the requests a lock sends, on the raw "
				+ "`ZooKeeper` handle, with nothing around them — the floor each way of sending them can reach.");
	}

	/** The uncontended row again, every client behind a proxy that delays each direction, as a LAN would. */
	private void overLan() throws Exception {
		String scenario = "Uncontended acquire + release, LAN-like link (+" + LAN_DELAY.toNanos() / 1000
				+ " µs each way)";
		List<LockLibrary> lan = new ArrayList<>(this.libraries.stream()
			.filter((library) -> library.name().startsWith("zk-spring") || library == LockLibrary.RAW_CURATOR)
			.toList());
		lan.addAll(List.of(BareZooKeeper.PIPELINED, BareZooKeeper.SEQUENTIAL));
		try (KillableProxy proxy = new KillableProxy(this.serverPort, LAN_DELAY.toNanos());
				Clients behindProxy = new Clients(proxy.connectString())) {
			Map<String, Contender> contenders = open(scenario, lan, 1, behindProxy::connect,
					(locks) -> () -> locks.get(0).acquireRelease("uncontended-lan"));
			this.report.latency(scenario, this.harness.latency(list(contenders)),
					List.of(LockLibrary.RAW_CURATOR.name()));
		}
		this.report.note("Every client of this table reaches the server through a TCP proxy that forwards each "
				+ "chunk of bytes " + LAN_DELAY.toNanos() / 1000 + " µs after it read it, in each direction, without "
				+ "holding back the chunks behind it: a round trip costs about " + 2 * LAN_DELAY.toNanos() / 1000
				+ " µs more than on loopback, while the server's fsync stays what it is. Round trips saved show here.");
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
		Map<String, Contender> contenders = open(scenario, blocking(this.libraries), clientCount, this.clients::connect,
				(locks) -> {
			AtomicInteger next = new AtomicInteger();
			ThreadLocal<LockLibrary.Locks> mine = ThreadLocal
				.withInitial(() -> locks.get(next.getAndIncrement() % locks.size()));
			return () -> mine.get().acquireRelease("one-key");
		});
		this.report.throughput(scenario, this.harness.throughput(list(contenders), clientCount * threadsPerClient),
				this.baselines);
	}

	private static List<LockLibrary> blocking(List<LockLibrary> libraries) {
		return libraries.stream().filter(LockLibrary::blocking).toList();
	}

	private Map<String, Contender> open(String scenario, List<LockLibrary> libraries, int clientCount,
			Connector connector, OpFactory factory) {
		Map<String, Contender> contenders = new LinkedHashMap<>();
		for (LockLibrary library : libraries) {
			try {
				List<LockLibrary.Locks> locks = new ArrayList<>();
				for (int i = 0; i < clientCount; i++) {
					locks.add(library.open(connector.connect()));
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
	private interface Connector {

		CuratorFramework connect() throws Exception;

	}

	@FunctionalInterface
	private interface OpFactory {

		Op op(List<LockLibrary.Locks> locks) throws Exception;

	}

}
