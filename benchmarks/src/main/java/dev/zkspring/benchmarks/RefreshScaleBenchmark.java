package dev.zkspring.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.util.FileSystemUtils;

import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.refresh.ZkRefreshedEvent;

/**
 * How refresh cost grows: many recorded {@code @Value} targets (one of them changing, or all), and
 * documents with many keys. Each case is an application of its own, the cases interleaved.
 */
final class RefreshScaleBenchmark {

	private final Clients clients;

	private final Harness harness;

	private final Report report;

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	private Path snapshots;

	RefreshScaleBenchmark(Clients clients, Harness harness, Report report) {
		this.clients = clients;
		this.harness = harness;
		this.report = report;
	}

	void run() throws Exception {
		this.report.section("Refresh scale", "`setData` on the application's document until the refresh is done "
				+ "(its `ZkRefreshedEvent` received) for targets, or until the Environment shows the changed key for "
				+ "documents. Every recorded `@Value` expression is resolved again on each change; only targets whose "
				+ "value changed are written.");
		this.snapshots = Files.createTempDirectory("bench-scale");
		CuratorFramework writer = this.clients.connect();
		try {
			List<Contender> targets = List.of(targets(writer, 1_000, false), targets(writer, 1_000, true),
					targets(writer, 10_000, false), targets(writer, 10_000, true));
			this.report.latency("@Value targets: setData → refresh done", this.harness.latency(targets),
					List.of(targets.get(0).name()));
			List<Contender> keys = List.of(keys(writer, 1_000), keys(writer, 10_000));
			this.report.latency("Keys in one document: setData → Environment updated", this.harness.latency(keys),
					List.of(keys.get(0).name()));
		}
		finally {
			this.contexts.forEach(ConfigurableApplicationContext::close);
			FileSystemUtils.deleteRecursively(this.snapshots.toFile());
		}
	}

	/** An application with {@code count} targets, of which one ({@code all=false}) or all change. */
	private Contender targets(CuratorFramework writer, int count, boolean all) throws Exception {
		String app = "scale-targets-" + count + (all ? "-all" : "-one");
		String znode = "/scale-config/" + app;
		writer.create().orSetData().creatingParentsIfNeeded().forPath(znode, targetsDocument(0));
		AtomicLong refreshed = new AtomicLong();
		ConfigurableApplicationContext context = start(app, (ctx) -> {
			for (int i = 0; i < count; i++) {
				if (all || i == 0) {
					ctx.registerBean("target" + i, Moving.class);
				}
				else {
					ctx.registerBean("target" + i, Fixed.class);
				}
			}
			ctx.addApplicationListener((ApplicationListener<ZkRefreshedEvent>) (event) -> refreshed.incrementAndGet());
		});
		String name = String.format("%,d targets, %s", count, all ? "all change" : "one changes");
		AtomicLong version = new AtomicLong();
		return LockBenchmarks.contender(name, () -> {
			long before = refreshed.get();
			writer.setData().forPath(znode, targetsDocument(version.incrementAndGet()));
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
			while (refreshed.get() == before) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException(name + ": no refresh within 60 s");
				}
				TimeUnit.MICROSECONDS.sleep(50);
			}
		});
	}

	private Contender keys(CuratorFramework writer, int count) throws Exception {
		String app = "scale-keys-" + count;
		String znode = "/scale-config/" + app;
		writer.create().orSetData().creatingParentsIfNeeded().forPath(znode, keysDocument(count, 0));
		ConfigurableApplicationContext context = start(app, (ctx) -> {
		});
		String name = String.format("%,d keys, one changes", count);
		return ConfigBenchmarks.propagation(name,
				(value) -> writer.setData().forPath(znode, keysDocument(count, Long.parseLong(value))),
				() -> context.getEnvironment().getProperty("bench.k0"));
	}

	private ConfigurableApplicationContext start(String app, Consumer<GenericApplicationContext> beans) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.initializers((ctx) -> beans.accept((GenericApplicationContext) ctx))
			.properties("spring.application.name=" + app, "spring.main.banner-mode=off",
					"zk.connect=" + this.clients.connectString(), "zk.config.root=/scale-config",
					"zk.config.snapshot-dir=" + this.snapshots, "zk.config.max-document-size=10MB",
					"zk.leader.enabled=false", "spring.cloud.zookeeper.enabled=false",
					"spring.cloud.zookeeper.config.enabled=false", "spring.cloud.compatibility-verifier.enabled=false")
			.run();
		this.contexts.add(context);
		return context;
	}

	private static byte[] targetsDocument(long version) {
		return ConfigBenchmarks.bytes("{\"bench\":{\"fixed\":\"f\",\"moving\":\"" + version + "\"}}");
	}

	private static byte[] keysDocument(int count, long version) {
		StringBuilder json = new StringBuilder("{\"bench\":{\"k0\":\"").append(version).append('"');
		for (int i = 1; i < count; i++) {
			json.append(",\"k").append(i).append("\":\"value-").append(i).append('"');
		}
		return ConfigBenchmarks.bytes(json.append("}}").toString());
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = ShardedJobBenchmark.QUARTZ_AUTO_CONFIGURATION)
	static class Application {

	}

	/** A target whose key changes with every write. */
	@RefreshScope
	static class Moving {

		@Value("${bench.moving}")
		volatile String value;

	}

	/** A target whose key never changes: resolved again, never written. */
	@RefreshScope
	static class Fixed {

		@Value("${bench.fixed}")
		volatile String value;

	}

}
