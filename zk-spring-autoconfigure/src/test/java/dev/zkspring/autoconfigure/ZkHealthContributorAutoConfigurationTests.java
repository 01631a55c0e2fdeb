package dev.zkspring.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.actuate.ZkHealthIndicator;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

class ZkHealthContributorAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkHealthContributorAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty());

	@Test
	void registersTheZookeeperContributorWithoutTheConfigCenterOrLeadership() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ZkHealthIndicator.class).hasBean("zookeeperHealthIndicator");
			assertThat(context.getBean(ZkHealthIndicator.class).health().getDetails()).containsKey("sessionId")
				.doesNotContainKeys("config", "leadership");
		});
	}

	@Test
	void backsOffWithoutBootsHealthSupport() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ZkHealthIndicator.class));
	}

	@Test
	void backsOffWhenTheIndicatorIsDisabled() {
		this.contextRunner.withPropertyValues("management.health.zookeeper.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ZkHealthIndicator.class));
	}

	@Test
	void backsOffWhenZkIsDisabled() {
		this.contextRunner.withPropertyValues("zk.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ZkHealthIndicator.class));
	}

	@Test
	void backsOffForAUserIndicatorOfTheSameName() {
		this.contextRunner.withBean("zookeeperHealthIndicator", HealthIndicator.class,
				() -> () -> org.springframework.boot.health.contributor.Health.up().build())
			.run((context) -> assertThat(context).doesNotHaveBean(ZkHealthIndicator.class));
	}

}
