package dev.zkspring.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Time to a ready context, the same minimal application with zk-spring on and with it off
 * ({@code zk.enabled=false}), in a warm JVM, against the same server.
 */
final class StartupBenchmark {

	private static final String WITH = "with zk-spring";

	private static final String WITHOUT = "without zk-spring (zk.enabled=false)";

	private final String connectString;

	private final Report report;

	private final Settings settings;

	StartupBenchmark(String connectString, Report report, Settings settings) {
		this.connectString = connectString;
		this.report = report;
		this.settings = settings;
	}

	void run() throws Exception {
		this.report.section("Startup", "`SpringApplication.run` until the context is ready, then closed; "
				+ "warm JVM (after 3 starts of each), the two variants alternating.");
		int samples = this.settings.quick() ? 5 : 20;
		for (int i = 0; i < 3; i++) {
			start(true);
			start(false);
		}
		Map<String, long[]> nanos = new LinkedHashMap<>();
		nanos.put(WITH, new long[samples]);
		nanos.put(WITHOUT, new long[samples]);
		for (int i = 0; i < samples; i++) {
			nanos.get(WITH)[i] = start(true);
			nanos.get(WITHOUT)[i] = start(false);
		}
		Map<String, Stats> stats = new LinkedHashMap<>();
		nanos.forEach((name, values) -> stats.put(name, Stats.of(values)));
		this.report.latency("Time to a ready context", stats, List.of(WITHOUT));
	}

	private long start(boolean enabled) {
		long begin = System.nanoTime();
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(StartupApplication.class)
			.web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("zk.connect=" + this.connectString, "zk.enabled=" + enabled, "spring.main.banner-mode=off",
					"logging.level.root=WARN", "spring.application.name=startup-bench",
					// Spring Cloud is on this module's classpath only as a peer; keep it out of both variants
					"spring.cloud.zookeeper.enabled=false", "spring.cloud.zookeeper.config.enabled=false",
					"spring.cloud.compatibility-verifier.enabled=false")
			.run()) {
			return System.nanoTime() - begin;
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = ShardedJobBenchmark.QUARTZ_AUTO_CONFIGURATION)
	static class StartupApplication {

	}

}
