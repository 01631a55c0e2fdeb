package dev.zkspring.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import dev.zkspring.actuate.ZkMetrics;
import dev.zkspring.actuate.ZkRequestMetrics;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * zk-spring's Micrometer meters (a {@link io.micrometer.core.instrument.binder.MeterBinder} that Boot
 * binds to the application's registries), and ZooKeeper's request latency from Curator's tracer driver, when
 * Micrometer is on the class path.
 */
@AutoConfiguration(after = { ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
		ZkLockAutoConfiguration.class },
		afterName = "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration")
@ConditionalOnClass({ CuratorFramework.class, MeterRegistry.class })
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@ConditionalOnBean(CuratorFramework.class)
public final class ZkMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZkMetrics zkMetrics(ObjectProvider<ZkLockTemplate> lockTemplates, ObjectProvider<ZkLeaderElection> elections) {
		return new ZkMetrics(lockTemplates.orderedStream().toList(), elections.orderedStream().toList());
	}

	/** ZooKeeper's answer time per operation, from Curator's tracer driver, on the one client. */
	@Bean
	@ConditionalOnMissingBean
	ZkRequestMetrics zkRequestMetrics(CuratorFramework client) {
		return ZkRequestMetrics.install(client);
	}

}
