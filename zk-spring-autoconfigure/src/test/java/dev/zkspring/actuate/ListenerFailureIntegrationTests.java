package dev.zkspring.actuate;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.autoconfigure.ZkMetricsAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.refresh.ZkConfigListener;
import dev.zkspring.refresh.ZkRefreshedEvent;
import dev.zkspring.test.ZkAppFixture;

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
	static final ZkAppFixture app = ZkAppFixture
		.server(ZkAppFixture.app(PropertyPlaceholderAutoConfiguration.class, ZkRefreshAutoConfiguration.class,
				ZkMetricsAutoConfiguration.class, MetricsAutoConfiguration.class,
				CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
		.cleaning("/config")
		.with((runner) -> runner.withUserConfiguration(Activity.class)
			.withBean(Greeter.class)
			.withBean(ThrowingListener.class));

	private static final Duration WAIT = Duration.ofSeconds(20);

	@BeforeEach
	void setUp() throws Exception {
		app.write("/config/orders", "{\"shop\":{\"greeting\":\"v1\",\"limit\":1}}");
	}

	@Test
	void aThrowingListenerDelaysNoOwnListenerAndTheLogSaysTheChangeIsApplied(CapturedOutput output) throws Exception {
		app.runner().run((context) -> {
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			ZkConfigActivity activity = context.getBean(ZkConfigActivity.class);
			app.write("/config/orders", "{\"shop\":{\"greeting\":\"v2\",\"limit\":1}}");
			await().atMost(WAIT).until(() -> registry.get("zk.config.changes").counter().count() == 1);
			assertThat(registry.get("zk.refresh").timer().count()).isEqualTo(1);
			assertThat(activity.describeContexts()).singleElement()
				.satisfies((described) -> assertThat(described).containsKey("lastRefresh"));
			assertThat(context.getBean(Greeter.class).greeting).isEqualTo("v2");
			assertThat(context.getBean(Greeter.class).heard).isEqualTo(1);
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("v2");
			app.write("/config/orders", "{\"shop\":{\"greeting\":\"v3\",\"limit\":\"many\"}}");
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
