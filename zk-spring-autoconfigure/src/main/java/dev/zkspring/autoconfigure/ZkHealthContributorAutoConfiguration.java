package dev.zkspring.autoconfigure;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.actuate.ZkConfigActivity;
import dev.zkspring.actuate.ZkHealthIndicator;
import dev.zkspring.config.ZkConfigStatus;
import dev.zkspring.leader.ZkLeaderElection;

/**
 * The {@code zookeeper} health contributor, when Boot's health support is on the class path
 * ({@code management.health.zookeeper.enabled} switches it off).
 */
@AutoConfiguration(after = { ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class },
		beforeName = "org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration")
@ConditionalOnClass({ CuratorFramework.class, HealthIndicator.class })
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@ConditionalOnBean(CuratorFramework.class)
@ConditionalOnEnabledHealthIndicator("zookeeper")
public final class ZkHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZkConfigActivity zkConfigActivity(ConfigurableEnvironment environment) {
		return new ZkConfigActivity(environment);
	}

	@Bean
	@ConditionalOnMissingBean(name = "zookeeperHealthIndicator")
	ZkHealthIndicator zookeeperHealthIndicator(CuratorFramework client, ObjectProvider<ZkConfigStatus> configStatus,
			ObjectProvider<ZkConfigActivity> configActivity, ObjectProvider<ZkLeaderElection> elections) {
		return new ZkHealthIndicator(client, configStatus.getIfAvailable(), configActivity.getIfAvailable(),
				elections.orderedStream().toList());
	}

}
