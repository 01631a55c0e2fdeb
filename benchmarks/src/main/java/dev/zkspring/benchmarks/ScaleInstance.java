package dev.zkspring.benchmarks;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkCrashDetectionAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.crash.CrashDetector;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.refresh.RefreshScope;

/**
 * One instance of the scale benchmark: a whole Spring context, without a web server, with the
 * starter's machinery on a session of its own — the config watcher and refresher, a
 * {@code @RefreshScope} bean, the fleet publisher, the leader election, the lock registry and crash
 * detection (on by default in an application, so on here: its listener, session card and the link to the
 * instance ahead in the latch's line).
 */
final class ScaleInstance implements AutoCloseable {

	static final String APP = "scale";

	static final String CONFIG_ROOT = "/scale-config";

	static final String DOCUMENT = CONFIG_ROOT + "/" + APP;

	private final ConfigurableApplicationContext context;

	private final Reader reader;

	ScaleInstance(String connectString, int index) {
		this.context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties("spring.application.name=" + APP, "spring.main.banner-mode=off", "zk.connect=" + connectString,
					"zk.config.root=" + CONFIG_ROOT, "zk.config.snapshot-enabled=false", "zk.leader.enabled=true",
					"zk.leader.id=i-" + index, "zk.session-timeout=30s", "spring.cloud.zookeeper.enabled=false",
					"spring.cloud.zookeeper.config.enabled=false", "spring.cloud.compatibility-verifier.enabled=false")
			.run();
		this.reader = this.context.getBean(Reader.class);
	}

	/** The value the application sees now. */
	String value() {
		return this.reader.value;
	}

	CuratorFramework client() {
		return this.context.getBean(CuratorFramework.class);
	}

	ZkLeaderElection election() {
		return this.context.getBean(ZkLeaderElection.class);
	}

	ZkFleet fleet() {
		return this.context.getBean(ZkFleet.class);
	}

	CrashDetector detector() {
		return this.context.getBean(CrashDetector.class);
	}

	ZkLockTemplate locks() {
		return this.context.getBean(ZkLockTemplate.class);
	}

	/** Take and release one key, waiting at most {@code wait}. */
	void lockOnce(String key, Duration wait) {
		locks().execute(key, wait, () -> null);
	}

	static byte[] document(String value) {
		return ConfigBenchmarks.bytes("{\"bench\":{\"value\":\"" + value + "\"}}");
	}

	@Override
	public void close() {
		this.context.close();
	}

	@SpringBootConfiguration
	@ImportAutoConfiguration({ PropertyPlaceholderAutoConfiguration.class, ZkAutoConfiguration.class,
			ZkRefreshAutoConfiguration.class, ZkLeaderAutoConfiguration.class, ZkLockAutoConfiguration.class,
			ZkFleetAutoConfiguration.class, ZkCrashDetectionAutoConfiguration.class })
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
