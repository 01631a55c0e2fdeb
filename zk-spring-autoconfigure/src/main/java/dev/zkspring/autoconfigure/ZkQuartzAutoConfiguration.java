package dev.zkspring.autoconfigure;

import org.apache.curator.framework.CuratorFramework;
import org.quartz.Scheduler;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.quartz.autoconfigure.SchedulerFactoryBeanCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.jobs.LeaderGatedSchedulerCustomizer;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.jobs.ZkShards;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.ZkLeaderProperties;
import dev.zkspring.leader.ZkQuartzProperties;

/**
 * Spring Boot's auto-configured Quartz scheduler runs only while this instance leads: it does not
 * start with the context, starts on each grant, goes to standby on each revocation, and a trigger
 * listener vetoes any firing while leadership is not valid. Ordered after Boot's Quartz
 * auto-configuration, whose scheduler it customizes.
 */
@AutoConfiguration(after = ZkLeaderAutoConfiguration.class,
		afterName = "org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration")
@ConditionalOnClass({ Scheduler.class, SchedulerFactoryBean.class, SchedulerFactoryBeanCustomizer.class })
@ConditionalOnBooleanProperty(name = "zk.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "zk.quartz.leader-gated", matchIfMissing = true)
@ConditionalOnBean(ZkLeaderElection.class)
@EnableConfigurationProperties(ZkQuartzProperties.class)
public final class ZkQuartzAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZkJobs zkJobs(ZkLeaderElection election, ObjectProvider<ZkLeaderGroups> groups, ZkQuartzProperties quartz,
			Environment environment) {
		return new ZkJobs(election, groups.getIfUnique(), environment, quartz.getHistorySize(), quartz.getRequestTimeout());
	}

	@Bean
	@ConditionalOnMissingBean
	ZkShards zkShards(CuratorFramework client, ZkLeaderElection election, ObjectProvider<Scheduler> scheduler,
			ApplicationContext context, ObjectProvider<ZkLeaderProperties> leader) {
		ZkLeaderProperties settings = leader.getIfAvailable(ZkLeaderProperties::new);
		return new ZkShards(client, election, scheduler::getIfUnique, context, settings.getDrainTimeout());
	}

	/** The gated scheduler's jobs in the fleet node, for the operator's tool (none without the fleet). */
	@Bean
	FleetJobs zkFleetJobs(ObjectProvider<ZkFleet> fleet, ObjectProvider<ZkJobs> jobs, ObjectProvider<ZkShards> shards) {
		return new FleetJobs(fleet, jobs, shards);
	}

	@Bean
	@ConditionalOnMissingBean
	LeaderGatedSchedulerCustomizer zkLeaderGatedSchedulerCustomizer(ZkLeaderElection election,
			ZkQuartzProperties quartz, ObjectProvider<ZkJobs> jobs, ObjectProvider<ZkLeaderGroups> groups) {
		return new LeaderGatedSchedulerCustomizer(election, quartz.getOnRevoke(), jobs.getIfUnique(),
				groups.getIfUnique());
	}

}
