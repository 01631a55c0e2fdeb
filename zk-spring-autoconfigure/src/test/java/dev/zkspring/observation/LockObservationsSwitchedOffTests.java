package dev.zkspring.observation;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.autoconfigure.ZkObservationAutoConfiguration;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/observability.md tells an application that finds the hold's observation too dear to turn it off with
 * Boot's own {@code management.observations.enable.*}: the lock still works, the wait is still observed.
 */
class LockObservationsSwitchedOffTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkObservationAutoConfiguration.class, ObservationAutoConfiguration.class,
				MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class))
		.withBean(Counter.class)
		.withPropertyValues(zk.connectProperty(), "zk.config.enabled=false");

	@Test
	void bootsPropertyTurnsTheHoldOffAndKeepsTheWait() {
		this.runner.withPropertyValues("management.observations.enable.zk.lock.holding=false").run((context) -> {
			assertThat(context.getBean(Counter.class).next()).isEqualTo(1);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.find("zk.lock.acquisition").timer()).isNotNull();
			assertThat(meters.find("zk.lock.acquisition").timer().count()).isEqualTo(1);
			assertThat(meters.find("zk.lock.holding").timer()).isNull();
		});
	}

	@Test
	void withoutThePropertyBothAreObserved() {
		this.runner.run((context) -> {
			assertThat(context.getBean(Counter.class).next()).isEqualTo(1);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			assertThat(meters.find("zk.lock.acquisition").timer()).isNotNull();
			assertThat(meters.find("zk.lock.holding").timer()).isNotNull();
		});
	}

	static class Counter {

		private int count;

		@ZkLock(key = "'counter'")
		public int next() {
			return ++this.count;
		}

	}

}
