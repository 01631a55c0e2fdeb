package dev.zkspring.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.util.FileSystemUtils;

import dev.zkspring.refresh.RefreshScope;

/**
 * zk-spring's config center and refresh scope: one JSON document per context, watched, validated, and
 * written into a {@code @RefreshScope} bean's field.
 */
final class ZkSpringConfig implements ConfigBenchmarks.PropagationContender {

	private static final String PATH = "/zk-config/bench-zk";

	private ConfigurableApplicationContext context;

	private Path snapshots;

	@Override
	public String name() {
		return "zk-spring config center + @RefreshScope field";
	}

	@Override
	public void start(String connectString, CuratorFramework writer) throws Exception {
		writer.create().orSetData().creatingParentsIfNeeded().forPath(PATH, document("0"));
		this.snapshots = Files.createTempDirectory("bench-snapshots");
		this.context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("spring.application.name=bench-zk", "spring.main.banner-mode=off", "zk.connect=" + connectString,
					"zk.config.root=/zk-config", "zk.config.snapshot-dir=" + this.snapshots,
					"spring.cloud.zookeeper.enabled=false", "spring.cloud.zookeeper.config.enabled=false",
					"spring.cloud.compatibility-verifier.enabled=false")
			.run();
	}

	@Override
	public Contender asContender(CuratorFramework writer) {
		return ConfigBenchmarks.propagation(name(), (value) -> writer.setData().forPath(PATH, document(value)),
				() -> this.context.getBean(Reader.class).value);
	}

	private static byte[] document(String value) {
		return ConfigBenchmarks.bytes("{\"bench\":{\"value\":\"" + value + "\"}}");
	}

	@Override
	public void close() {
		if (this.context != null) {
			this.context.close();
		}
		if (this.snapshots != null) {
			FileSystemUtils.deleteRecursively(this.snapshots.toFile());
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = ShardedJobBenchmark.QUARTZ_AUTO_CONFIGURATION)
	static class Application {

		@Bean
		Reader reader() {
			return new Reader();
		}

	}

	/** The bean whose field the benchmark watches. */
	@RefreshScope
	static class Reader {

		@Value("${bench.value}")
		volatile String value;

	}

}
