package dev.zkspring.autoconfigure;

import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.PathUtils;
import org.apache.curator.utils.ZKPaths;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.client.InstanceId;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ZkConfigStatus;
import dev.zkspring.crash.CrashDetector;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.fleet.ZkFleetProperties;
import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.ZkLeaderProperties;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * The fleet view: this instance's state in an ephemeral node under
 * {@code {zk.fleet.root}/{spring.application.name}}, which the {@code zookeeper} endpoint's
 * {@code fleet} selector lists for every instance.
 */
@AutoConfiguration(after = { ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
		ZkLockAutoConfiguration.class })
@ConditionalOnClass({ CuratorFramework.class, JsonMapper.class })
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "zk.fleet.enabled", matchIfMissing = true)
@ConditionalOnBean(CuratorFramework.class)
@EnableConfigurationProperties({ ZkFleetProperties.class, ZkLeaderProperties.class })
public final class ZkFleetAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZkFleet zkFleet(CuratorFramework client, ZkFleetProperties properties, ZkLeaderProperties leader,
			ConfigurableEnvironment environment,
			ObjectProvider<ZkLockTemplate> lockTemplates, ObjectProvider<ZkLeaderElection> elections, ObjectProvider<ZkLeaderGroups> groups,
			ObjectProvider<ZkConfigStatus> configStatus, ObjectProvider<InstanceId> loadedAs,
			ObjectProvider<CrashDetector> crashDetector) {
		ZkLeaderElection election = elections.getIfUnique();
		Supplier<String> id = () -> (election != null) ? election.participantId()
				: loadedAs.getIfAvailable(() -> InstanceId.of(leader.getId(), environment)).value();
		ZkFleet fleet = new ZkFleet(client, fleetPath(properties.getRoot(), environment), id, environment,
				lockTemplates.orderedStream().toList(), LeaderGroupsSettings.withGroups(elections, groups), configStatus.getIfAvailable());
		CrashDetector detector = crashDetector.getIfUnique();
		if (detector != null) {
			fleet.showCrashDetection(detector::describe);
			detector.onStateChange(() -> fleet.showCrashDetection(detector::describe));
		}
		return fleet;
	}

	static String fleetPath(String root, ConfigurableEnvironment environment) {
		String application = environment.getProperty("spring.application.name", "application");
		String path;
		try {
			PathUtils.validatePath(root);
			path = ZKPaths.makePath(root, application);
			PathUtils.validatePath(path);
		}
		catch (IllegalArgumentException ex) {
			throw new ZkStartupException("zk.fleet.root (with spring.application.name) is not a valid ZooKeeper path: "
					+ ex.getMessage(), "Set zk.fleet.root to an absolute path such as /fleet, and spring.application.name "
							+ "to a name without '/'.", ex);
		}
		if (application.contains("/")) {
			throw new ZkStartupException("spring.application.name '" + application + "' contains '/', so it cannot name "
					+ "the fleet node under zk.fleet.root.", "Set spring.application.name to a name such as order-service.");
		}
		return path;
	}

}
