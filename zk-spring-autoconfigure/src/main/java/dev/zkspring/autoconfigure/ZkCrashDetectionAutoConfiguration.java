package dev.zkspring.autoconfigure;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.PathUtils;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

import dev.zkspring.client.InstanceId;
import dev.zkspring.client.ZkClientProperties;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.crash.CrashDetectionSettings;
import dev.zkspring.crash.CrashDetector;
import dev.zkspring.crash.ZkCrashDetectionProperties;
import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.ZkLeaderProperties;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * Crash detection ({@code zk.crash-detection.*}, on by default): the detector, the lock templates' waiters
 * and every election's next in line watching the instance ahead of them, and its meters with Micrometer.
 * On by default because a crash otherwise leaves leadership and keys blocked for the session timeout;
 * turn it off where instances cannot open a port to each other.
 */
@AutoConfiguration(after = { ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class, ZkLockAutoConfiguration.class },
		before = { ZkFleetAutoConfiguration.class, ZkMetricsAutoConfiguration.class })
@ConditionalOnClass(CuratorFramework.class)
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "zk.crash-detection.enabled", matchIfMissing = true)
@ConditionalOnBean(CuratorFramework.class)
@EnableConfigurationProperties({ ZkCrashDetectionProperties.class, ZkClientProperties.class, ZkLeaderProperties.class })
public final class ZkCrashDetectionAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	CrashDetector zkCrashDetector(CuratorFramework client, ZkCrashDetectionProperties properties,
			ZkClientProperties clientProperties, ZkLeaderProperties leader, Environment environment,
			ObjectProvider<ZkLockTemplate> lockTemplates, ObjectProvider<ZkLeaderElection> elections,
			ObjectProvider<ZkLeaderGroups> groups, ObjectProvider<InstanceId> loadedAs) {
		CrashDetector detector = new CrashDetector(client, settings(properties, clientProperties), () -> loadedAs
			.getIfAvailable(() -> InstanceId.of(leader.getId(), environment)).value());
		lockTemplates.orderedStream().forEach((template) -> template.watchPeersWith(detector));
		for (ZkLeaderElection election : LeaderGroupsSettings.withGroups(elections, groups)) {
			detector.follow(election.latchPath(), election::latchNode);
		}
		return detector;
	}

	static CrashDetectionSettings settings(ZkCrashDetectionProperties crash, ZkClientProperties client) {
		if (crash.getPort() < 0 || crash.getPort() > 65_535) {
			throw new ZkStartupException("zk.crash-detection.port is " + crash.getPort() + ".",
					"Set zk.crash-detection.port to a TCP port (1-65535), or 0 for any free one.");
		}
		if (crash.getReconnectTimeout() == null || crash.getReconnectTimeout().isNegative()
				|| crash.getReconnectTimeout().isZero()) {
			throw new ZkStartupException("zk.crash-detection.reconnect-timeout is " + crash.getReconnectTimeout() + ".",
					"Set zk.crash-detection.reconnect-timeout to a positive duration such as 100ms.");
		}
		try {
			PathUtils.validatePath(crash.getRoot());
		}
		catch (IllegalArgumentException ex) {
			throw new ZkStartupException("zk.crash-detection.root is not a valid ZooKeeper path: " + ex.getMessage(),
					"Set zk.crash-detection.root to an absolute path such as /crash.", ex);
		}
		String address = StringUtils.hasText(crash.getAddress()) ? crash.getAddress() : null;
		return new CrashDetectionSettings(crash.getRoot(), address, crash.getPort(), crash.getReconnectTimeout(),
				StringUtils.hasText(client.getAuth().getCredentials()));
	}

	/** Deaths found and sessions ended, when Micrometer is on the class path. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterRegistry.class)
	static class Meters {

		@Bean
		MeterBinder zkCrashDetectionMeters(CrashDetector detector) {
			return (registry) -> {
				FunctionCounter.builder("zk.crash.deaths", detector, CrashDetector::deathsDetected)
					.description("Watched instances found dead: connection closed, then reconnects refused")
					.register(registry);
				FunctionCounter.builder("zk.crash.sessions.ended", detector, CrashDetector::sessionsEnded)
					.description("Dead instances' sessions this instance ended, so their latch and lock nodes went")
					.register(registry);
			};
		}

	}

}
