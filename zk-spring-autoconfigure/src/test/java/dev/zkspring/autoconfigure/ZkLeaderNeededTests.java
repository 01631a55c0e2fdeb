package dev.zkspring.autoconfigure;

import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Elect only where something needs a leader (issue 31.3): an application with neither leader-gated jobs
 * nor {@code @LeaderOnly} methods starts without {@code spring.application.name} and joins no election;
 * where a leader is needed and no name is set, the startup fails at once naming the properties.
 */
class ZkLeaderNeededTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
				ZkQuartzAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty());

	@Test
	void anApplicationThatNeedsNoLeaderStartsWithoutANameAndJoinsNoElection() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLeaderElection.class));
	}

	@Test
	void aLeaderOnlyBeanMakesTheApplicationElect() {
		this.contextRunner.withPropertyValues("spring.application.name=orders")
			.withUserConfiguration(LeaderOnlyConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(ZkLeaderElection.class));
	}

	@Test
	void aQuartzJobMakesTheApplicationElect() {
		this.contextRunner.withPropertyValues("spring.application.name=orders")
			.withUserConfiguration(JobConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(ZkLeaderElection.class));
	}

	@Test
	void aQuartzJobOfASchedulerThatIsNotLeaderGatedNeedsNoLeader() {
		this.contextRunner.withPropertyValues("zk.quartz.leader-gated=false")
			.withUserConfiguration(JobConfiguration.class)
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZkLeaderElection.class));
	}

	@Test
	void zkLeaderEnabledElectsWithNothingThatNeedsALeader() {
		this.contextRunner.withPropertyValues("spring.application.name=orders", "zk.leader.enabled=true")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(ZkLeaderElection.class));
	}

	@Test
	void aMissingNameWhereALeaderIsNeededFailsBeforeAnyBeanIsCreatedNamingTheProperties() {
		EarlyBean.created.set(false);
		this.contextRunner.withUserConfiguration(JobConfiguration.class).withBean(EarlyBean.class).run((context) -> {
			ZkStartupException failure = ZkLeaderAutoConfigurationTests.startupFailure(context.getStartupFailure());
			assertThat(failure.getDescription()).contains("spring.application.name").contains("zk.leader.group")
				.contains("leader-gated Quartz jobs");
			assertThat(failure.getAction()).contains("spring.application.name").contains("zk.leader.enabled=false");
			assertThat(EarlyBean.created).isFalse();
		});
	}

	@Test
	void aLeaderOnlyMethodTheConditionCouldNotSeeFailsTheStartupInsteadOfRunningEverywhere() {
		this.contextRunner.withUserConfiguration(HiddenLeaderOnlyConfiguration.class).run((context) -> {
			ZkStartupException failure = ZkLeaderAutoConfigurationTests.startupFailure(context.getStartupFailure());
			assertThat(failure.getDescription()).contains("hidden").contains("@LeaderOnly");
			assertThat(failure.getAction()).contains("zk.leader.enabled=true");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class LeaderOnlyConfiguration {

		@Bean
		Reporter reporter() {
			return new Reporter();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class HiddenLeaderOnlyConfiguration {

		@Bean
		Object hidden() {
			return new Reporter();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class JobConfiguration {

		@Bean
		JobDetail report() {
			return JobBuilder.newJob(NoJob.class).withIdentity("report").storeDurably().build();
		}

	}

	static class Reporter {

		@LeaderOnly
		public void report() {
		}

	}

	static class EarlyBean {

		static final AtomicBoolean created = new AtomicBoolean();

		EarlyBean() {
			created.set(true);
		}

	}

	public static class NoJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
		}

	}

}
