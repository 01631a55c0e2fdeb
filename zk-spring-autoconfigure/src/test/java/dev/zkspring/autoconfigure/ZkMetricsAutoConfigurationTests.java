package dev.zkspring.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.actuate.ZkMetrics;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

class ZkMetricsAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkMetricsAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty());

	@Test
	void registersTheBinderWhoseLockMetersAppearOnceBound() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ZkMetrics.class);
			MeterRegistry registry = new SimpleMeterRegistry();
			context.getBean(ZkMetrics.class).bindTo(registry);
			assertThat(registry.find("zk.lock.lost").functionCounter()).isNotNull();
		});
	}

	@Test
	void backsOffWithoutMicrometer() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(MeterRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ZkMetrics.class));
	}

	@Test
	void backsOffWhenZkIsDisabled() {
		this.contextRunner.withPropertyValues("zk.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ZkMetrics.class));
	}

}
