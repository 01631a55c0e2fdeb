package dev.zkspring.benchmarks;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Spring Cloud Zookeeper Config with Spring Cloud Context's refresh: one znode per key, a watcher
 * that publishes a RefreshEvent, and a Spring Cloud {@code @RefreshScope} bean that is rebuilt.
 */
final class SpringCloudZookeeperConfig implements ConfigBenchmarks.PropagationContender {

	private static final String PATH = "/sc-config/bench-sc/bench.value";

	private ConfigurableApplicationContext context;

	@Override
	public String name() {
		return "Spring Cloud Zookeeper Config + @RefreshScope";
	}

	@Override
	public void start(String connectString, CuratorFramework writer) throws Exception {
		writer.create().orSetData().creatingParentsIfNeeded().forPath(PATH, ConfigBenchmarks.bytes("0"));
		this.context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("spring.application.name=bench-sc", "spring.main.banner-mode=off", "zk.enabled=false",
					"spring.config.import=zookeeper:" + connectString, "spring.cloud.zookeeper.connect-string=" + connectString,
					"spring.cloud.zookeeper.config.root=sc-config",
					// Spring Cloud 2025.1 declares Boot 4.0 only; the check is off so the row shows what really happens
					"spring.cloud.compatibility-verifier.enabled=false")
			.run();
	}

	@Override
	public Contender asContender(CuratorFramework writer) {
		Reader reader = this.context.getBean(Reader.class);
		return ConfigBenchmarks.propagation(name(),
				(value) -> writer.setData().forPath(PATH, ConfigBenchmarks.bytes(value)), reader::value);
	}

	@Override
	public void close() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration(excludeName = ShardedJobBenchmark.QUARTZ_AUTO_CONFIGURATION)
	static class Application {

		@Bean
		@org.springframework.cloud.context.config.annotation.RefreshScope
		Reader reader(@Value("${bench.value}") String value) {
			return new Reader(value);
		}

	}

	/** The bean whose value the benchmark watches. */
	static class Reader {

		private final String value;

		Reader(String value) {
			this.value = value;
		}

		String value() {
			return this.value;
		}

	}

}
