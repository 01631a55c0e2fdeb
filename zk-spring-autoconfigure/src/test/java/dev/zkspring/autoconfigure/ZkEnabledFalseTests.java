package dev.zkspring.autoconfigure;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.embedded.EmbeddedZooKeeper;
import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.refresh.RefreshScope;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code zk.enabled=false} turns every part of the starter off, whatever else is configured. */
class ZkEnabledFalseTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withInitializer(new ZkConfigInitializer())
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
				ZkQuartzAutoConfiguration.class, ZkRefreshAutoConfiguration.class, ZkLockAutoConfiguration.class,
				QuartzAutoConfiguration.class))
		.withUserConfiguration(Features.class)
		.withPropertyValues("spring.application.name=orders", "zk.enabled=false", "zk.embedded.enabled=true",
				"zk.connect=127.0.0.1:1", "shop.greeting=from-yml");

	@Test
	void noClientServerConfigSourceLockLeaderOrProxyExists() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed()
				.doesNotHaveBean(CuratorFramework.class)
				.doesNotHaveBean(EmbeddedZooKeeper.class)
				.doesNotHaveBean(ZkLockTemplate.class)
				.doesNotHaveBean(ZkLeaderElection.class);
			assertThat(context.getEnvironment().getPropertySources().contains(ZkConfigInitializer.PROPERTY_SOURCE_NAME))
				.isFalse();
			assertThat(AopUtils.isAopProxy(context.getBean(Guarded.class))).isFalse();
			assertThat(context.getBean(Guarded.class).deduct("sku")).isEqualTo("done");
			assertThat(context.getBean(Greeter.class).greeting).isEqualTo("from-yml");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Features {

		@Bean
		Guarded guarded() {
			return new Guarded();
		}

		@Bean
		Greeter greeter() {
			return new Greeter();
		}

	}

	static class Guarded {

		@ZkLock(key = "#sku")
		@LeaderOnly
		public String deduct(String sku) {
			return "done";
		}

	}

	@RefreshScope
	static class Greeter {

		@Value("${shop.greeting}")
		String greeting;

	}

}
