package dev.zkspring.autoconfigure;

import java.util.Set;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.actuate.ConfigSources;
import dev.zkspring.actuate.ZkConfigActivity;
import dev.zkspring.actuate.ZkEndpoint;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.jobs.ZkShards;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * The {@code zookeeper} actuator endpoint (read-only but for job requests on {@code jobs/{group}/{name}}), when Boot's actuator is on the class path and the
 * endpoint is available ({@code management.endpoints.web.exposure.include=zookeeper} to expose it over
 * HTTP); {@code /actuator/zookeeper/fleet} lists every instance when the fleet view is on. Values are masked unless {@code management.endpoint.zookeeper.show-values} allows them.
 */
@AutoConfiguration(after = { ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
		ZkLockAutoConfiguration.class, ZkFleetAutoConfiguration.class, ZkQuartzAutoConfiguration.class },
		afterName = "org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration")
@ConditionalOnClass({ CuratorFramework.class, Endpoint.class, ConditionalOnAvailableEndpoint.class })
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@ConditionalOnBean(CuratorFramework.class)
@ConditionalOnAvailableEndpoint(ZkEndpoint.class)
public final class ZkEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZkConfigActivity zkConfigActivity(ConfigurableEnvironment environment) {
		return new ZkConfigActivity(environment);
	}

	@Bean
	@ConditionalOnMissingBean
	ZkEndpoint zkEndpoint(CuratorFramework client, ConfigurableEnvironment environment,
			ObjectProvider<SanitizingFunction> sanitizingFunctions, ObjectProvider<ZkConfigActivity> configActivity,
			ObjectProvider<ZkLockTemplate> lockTemplates, ObjectProvider<ZkLeaderElection> elections, ObjectProvider<ZkLeaderGroups> groups,
			ObjectProvider<ZkFleet> fleet, ObjectProvider<ZkJobs> jobs, ObjectProvider<ZkShards> shards) {
		Binder binder = Binder.get(environment);
		Show show = binder.bind("management.endpoint.zookeeper.show-values", Show.class).orElse(Show.NEVER);
		Set<String> roles = binder.bind("management.endpoint.zookeeper.roles", Bindable.setOf(String.class))
			.orElse(Set.of());
		ZkEndpoint endpoint = new ZkEndpoint(client, new ConfigSources(environment, sanitizingFunctions.orderedStream().toList()),
				configActivity.getIfAvailable(), lockTemplates.orderedStream().toList(),
				LeaderGroupsSettings.withGroups(elections, groups), show, roles, fleet.getIfAvailable(), jobs.getIfUnique());
		endpoint.setShards(shards.getIfUnique());
		return endpoint;
	}

}
