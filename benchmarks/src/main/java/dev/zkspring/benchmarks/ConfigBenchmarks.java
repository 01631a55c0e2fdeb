package dev.zkspring.benchmarks;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;

/**
 * Config propagation: from {@code setData} on the writer's own session to the new value being visible
 * where the application reads it. Each contender watches znodes of its own on the same server.
 */
final class ConfigBenchmarks {

	static final String FLOOR = "bare CuratorCache listener (floor)";

	private final Clients clients;

	private final Harness harness;

	private final Report report;

	private final List<PropagationContender> extra;

	ConfigBenchmarks(Clients clients, Harness harness, Report report, List<PropagationContender> extra) {
		this.clients = clients;
		this.harness = harness;
		this.report = report;
		this.extra = extra;
	}

	void run() throws Exception {
		this.report.section("Config propagation", "A writer with a session of its own calls `setData`; the sample "
				+ "ends when the new value is visible where the application reads it (polled every 50 µs).");
		CuratorFramework writer = this.clients.connect();
		List<Contender> contenders = new ArrayList<>();
		contenders.add(floor(writer));
		for (PropagationContender contender : this.extra) {
			try {
				contender.start(this.clients.connectString(), writer);
				contenders.add(contender.asContender(writer));
			}
			catch (Throwable ex) {
				this.report.failed("Config propagation", contender.name(), ex);
			}
		}
		this.report.latency("setData → value visible", this.harness.latency(contenders), List.of(FLOOR));
		for (PropagationContender contender : this.extra) {
			contender.close();
		}
	}

	private Contender floor(CuratorFramework writer) throws Exception {
		String path = "/bench-floor/value";
		writer.create().orSetData().creatingParentsIfNeeded().forPath(path, bytes("0"));
		CuratorFramework reader = this.clients.connect();
		CuratorCache cache = CuratorCache.build(reader, "/bench-floor");
		Holder seen = new Holder();
		cache.listenable().addListener((type, before, after) -> {
			if (after != null && after.getPath().equals(path)) {
				seen.value = new String(after.getData(), StandardCharsets.UTF_8);
			}
		});
		cache.start();
		return propagation(FLOOR, (value) -> writer.setData().forPath(path, bytes(value)), () -> seen.value);
	}

	/** A contender whose operation writes a fresh value and waits until the reader sees it. */
	static Contender propagation(String name, Writer writer, Supplier<String> reader) {
		AtomicLong counter = new AtomicLong();
		return LockBenchmarks.contender(name, () -> {
			String value = String.valueOf(counter.incrementAndGet());
			writer.write(value);
			awaitValue(name, reader, value);
		});
	}

	/** Writes a value the way the contender stores it (a raw znode, a JSON document). */
	@FunctionalInterface
	interface Writer {

		void write(String value) throws Exception;

	}

	static void awaitValue(String name, Supplier<String> reader, String expected) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (!expected.equals(reader.get())) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(name + " did not see the new value within 30 s");
			}
			TimeUnit.MICROSECONDS.sleep(50);
		}
	}

	static byte[] bytes(String value) {
		return value.getBytes(StandardCharsets.UTF_8);
	}

	/** A config library measured against the floor. */
	interface PropagationContender extends AutoCloseable {

		String name();

		void start(String connectString, CuratorFramework writer) throws Exception;

		Contender asContender(CuratorFramework writer);

		@Override
		void close();

	}

	private static final class Holder {

		volatile String value;

	}

}
