package dev.zkspring.actuate;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkMetricsAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.refresh.ZkConfigListener;
import dev.zkspring.refresh.ZkRefreshedEvent;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application listener that throws, even one ordered first, neither keeps zk-spring's own listeners
 * (metrics, activity, {@code @ZkConfigListener} methods) from hearing of a change or a refusal, nor makes
 * the log say the change was not applied.
 */
@ExtendWith(OutputCaptureExtension.class)
class ListenerFailureIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final Duration WAIT = Duration.ofSeconds(20);

	@TempDir
	Path snapshots;

	private CuratorFramework writer;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() throws Exception {
		this.writer = zk.newClient();
		this.runner = new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
					ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class, ZkMetricsAutoConfiguration.class,
					MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
					SimpleMetricsExportAutoConfiguration.class))
			.withUserConfiguration(Activity.class)
			.withBean(Greeter.class)
			.withBean(ThrowingListener.class)
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + this.snapshots,
					"spring.application.name=orders");
		write("/config/orders", "{\"shop\":{\"greeting\":\"v1\",\"limit\":1}}");
	}

	@AfterEach
	void cleanUp() throws Exception {
		this.writer.delete().deletingChildrenIfNeeded().forPath("/config");
	}

	@Test
	void aThrowingListenerDelaysNoOwnListenerAndTheLogSaysTheChangeIsApplied(CapturedOutput output) throws Exception {
		this.runner.run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			ZkConfigActivity activity = context.getBean(ZkConfigActivity.class);
			write("/config/orders", "{\"shop\":{\"greeting\":\"v2\",\"limit\":1}}");
			await().atMost(WAIT).until(() -> registry.get("zk.config.changes").counter().count() == 1);
			assertThat(registry.get("zk.refresh").timer().count()).isEqualTo(1);
			assertThat(activity.describeContexts()).singleElement()
				.satisfies((described) -> assertThat(described).containsKey("lastRefresh"));
			assertThat(context.getBean(Greeter.class).greeting).isEqualTo("v2");
			assertThat(context.getBean(Greeter.class).heard).isEqualTo(1);
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("v2");
			write("/config/orders", "{\"shop\":{\"greeting\":\"v3\",\"limit\":\"many\"}}");
			await().atMost(WAIT)
				.until(() -> registry.get("zk.config.rejections").tag("znode", "/config/orders").counter().count() == 1);
			assertThat(activity.describeContexts()).singleElement()
				.satisfies((described) -> assertThat(described).containsKey("lastRejection"));
		});
		assertThat(output).doesNotContain("Could not reload")
			.contains("A listener of ZkConfigChangedEvent failed (java.lang.IllegalStateException); the change is "
					+ "applied")
			.contains("A listener of ZkRefreshedEvent failed (java.lang.IllegalStateException); the change is applied")
			.contains("A listener of ZkConfigRejectedEvent failed (java.lang.IllegalStateException); the change "
					+ "stays refused");
	}

	private void write(String path, String json) throws Exception {
		byte[] data = json.getBytes(StandardCharsets.UTF_8);
		if (this.writer.checkExists().forPath(path) == null) {
			this.writer.create().creatingParentsIfNeeded().forPath(path, data);
		}
		else {
			this.writer.setData().forPath(path, data);
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class Activity {

		@Bean
		ZkConfigActivity zkConfigActivity(ConfigurableEnvironment environment) {
			return new ZkConfigActivity(environment);
		}

	}

	@RefreshScope
	static class Greeter {

		@Value("${shop.greeting}")
		volatile String greeting;

		@Value("${shop.limit}")
		volatile int limit;

		volatile int heard;

		@ZkConfigListener(prefixes = "shop")
		void shopChanged() {
			this.heard++;
		}

	}

	/** Fails on every event of the config center, and asks to be called first. */
	@Order(Ordered.HIGHEST_PRECEDENCE)
	static class ThrowingListener implements ApplicationListener<ApplicationEvent> {

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			if (event instanceof ZkConfigChangedEvent || event instanceof ZkRefreshedEvent
					|| event instanceof ZkConfigRejectedEvent) {
				throw new IllegalStateException("the application's listener failed");
			}
		}

	}

}
