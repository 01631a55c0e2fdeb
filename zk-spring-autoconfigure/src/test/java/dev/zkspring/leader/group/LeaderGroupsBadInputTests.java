package dev.zkspring.leader.group;

import java.util.Optional;
import java.util.UUID;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.leader.RecordingJob;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** Leader groups refuse bad settings at startup, naming the key to fix. */
class LeaderGroupsBadInputTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, QuartzAutoConfiguration.class,
				ZkLeaderAutoConfiguration.class, ZkQuartzAutoConfiguration.class))
		.withUserConfiguration(JobsConfiguration.class)
		.withPropertyValues(zk.connectProperty(), "spring.application.name=bad-groups");

	@Test
	void jobNamedInTwoGroupsIsRefusedNamingBothKeys() {
		this.contextRunner.withPropertyValues("zk.leader.groups.one=report", "zk.leader.groups.two=cleanup,report")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(ZkStartupException.class)
				.hasMessageContaining("Quartz job 'report' is named in zk.leader.groups.one and in zk.leader.groups.two"));
	}

	@Test
	void unknownJobNameInAGroupIsRefusedNamingTheKeyAndTheKnownJobs() {
		this.contextRunner.withPropertyValues("zk.leader.groups.one=report,reprot")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(ZkStartupException.class)
				.hasMessageContaining("zk.leader.groups.one names Quartz job 'reprot'")
				.hasMessageContaining("[cleanup, report]"));
	}

	@Test
	void maxGroupsBelowOneIsRefusedNamingTheKey() {
		this.contextRunner.withPropertyValues("zk.leader.groups.one=report", "zk.leader.max-groups=0")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(ZkStartupException.class)
				.hasMessageContaining("zk.leader.max-groups is 0"));
	}

	@Test
	void groupNameThatIsNotANodeNameIsRefusedNamingTheKey() {
		this.contextRunner.withPropertyValues("zk.leader.groups[a/b]=report")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(ZkStartupException.class)
				.hasMessageContaining("zk.leader.groups.a/b"));
	}

	@Test
	void leaderOnlyNamingAnUnconfiguredGroupIsRefusedNamingTheMissingKey() {
		this.contextRunner.withPropertyValues("zk.leader.groups.one=report")
			.withBean(Billing.class, Billing::new)
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(ZkStartupException.class)
				.hasMessageContaining("@LeaderOnly(group = \"billing\")")
				.hasMessageContaining("zk.leader.groups.billing"));
	}

	@Test
	void groupsOnQuartzJdbcStoreAreRefusedNamingBothSettings() {
		this.contextRunner.withUserConfiguration(QuartzTables.class)
			.withPropertyValues("zk.leader.groups.one=report", "spring.quartz.job-store-type=jdbc",
					"spring.quartz.jdbc.initialize-schema=always", "spring.quartz.properties.org.quartz.jobStore.isClustered=true")
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(ZkStartupException.class)
				.hasMessageContaining("zk.leader.groups")
				.hasMessageContaining("spring.quartz.job-store-type=jdbc"));
	}

	@Test
	void quartzJdbcStoreWithoutGroupsStarts() {
		this.contextRunner.withUserConfiguration(QuartzTables.class)
			.withPropertyValues("spring.quartz.job-store-type=jdbc", "spring.quartz.jdbc.initialize-schema=always")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLeaderGroups.class));
	}

	@Test
	void withoutGroupsNoGroupElectionExists() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(ZkLeaderElection.class).doesNotHaveBean(ZkLeaderGroups.class);
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class JobsConfiguration {

		@Bean
		JobDetail report() {
			return JobBuilder.newJob(RecordingJob.class).withIdentity("report").storeDurably().build();
		}

		@Bean
		JobDetail cleanup() {
			return JobBuilder.newJob(RecordingJob.class).withIdentity("cleanup").storeDurably().build();
		}

	}

	/** An H2 database for Quartz's JDBC job store; Boot creates Quartz's tables in it. */
	@Configuration(proxyBeanMethods = false)
	static class QuartzTables {

		@Bean
		DataSource dataSource() {
			return new DriverManagerDataSource("jdbc:h2:mem:quartz-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		}

	}

	static class Billing {

		@LeaderOnly(group = "billing")
		public Optional<String> bill() {
			return Optional.of("billed");
		}

	}

}
