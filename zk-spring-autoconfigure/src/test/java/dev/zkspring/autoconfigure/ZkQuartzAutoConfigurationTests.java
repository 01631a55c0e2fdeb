package dev.zkspring.autoconfigure;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.quartz.SchedulerFactoryBean;

import dev.zkspring.jobs.LeaderGatedSchedulerCustomizer;
import dev.zkspring.leader.LeaderJobs;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.ZkQuartzProperties;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ZkQuartzAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final AtomicInteger runs = new AtomicInteger();

	private static final AtomicInteger lastEpoch = new AtomicInteger();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, QuartzAutoConfiguration.class,
				ZkLeaderAutoConfiguration.class, ZkQuartzAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty(), "spring.quartz.properties.org.quartz.threadPool.threadCount=1")
		.withUserConfiguration(CountingJobConfiguration.class);

	@Test
	void bootsSchedulerDoesNotStartWithTheContextButOnGainingLeadership() {
		this.contextRunner.withPropertyValues("spring.application.name=gated-boot").run((context) -> {
			assertThat(context).hasSingleBean(LeaderGatedSchedulerCustomizer.class);
			assertThat(context.getBean("&quartzScheduler", SchedulerFactoryBean.class).isAutoStartup()).isFalse();
			ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
			Scheduler scheduler = context.getBean(Scheduler.class);
			await().atMost(Duration.ofSeconds(5)).until(election::isLeader);
			await().atMost(Duration.ofSeconds(5)).until(() -> scheduler.isStarted() && !scheduler.isInStandbyMode());
			int before = runs.get();
			await().atMost(Duration.ofSeconds(5)).until(() -> runs.get() > before);
			await().atMost(Duration.ofSeconds(5)).until(() -> lastEpoch.get() == (int) election.epoch());
		});
	}

	@Test
	void vetoesEveryFiringWhileAnotherInstanceLeadsEvenIfSomeoneStartsTheScheduler() throws Exception {
		ZkLeaderElection other = new ZkLeaderElection(zk.newClient(), "/leader/gated-veto", () -> "other",
				Duration.ZERO, Duration.ZERO);
		other.start();
		try {
			await().atMost(Duration.ofSeconds(5)).until(other::isLeader);
			this.contextRunner.withPropertyValues("spring.application.name=gated-veto").run((context) -> {
				Scheduler scheduler = context.getBean(Scheduler.class);
				scheduler.start();
				int before = runs.get();
				await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(2)).until(() -> runs.get() == before);
				other.stop();
				await().atMost(Duration.ofSeconds(5)).until(() -> runs.get() > before);
			});
		}
		finally {
			other.stop();
		}
	}

	@Test
	void theGatedSchedulersMisfireThresholdIsSixtySecondsUnlessConfigured() {
		// Quartz's in-memory store alone takes 5 s, shorter than a handover gap of about a session timeout
		this.contextRunner.withPropertyValues("spring.application.name=gated-misfire",
				"spring.quartz.properties.org.quartz.threadPool.threadCount=2")
			.run((context) -> assertThat(quartzProperties(context))
				.containsEntry("org.quartz.jobStore.misfireThreshold", "60000")
				.containsEntry("org.quartz.threadPool.threadCount", "2"));
		this.contextRunner.withPropertyValues("spring.application.name=gated-misfire-own",
				"spring.quartz.properties.org.quartz.jobStore.misfireThreshold=100")
			.run((context) -> assertThat(quartzProperties(context))
				.containsEntry("org.quartz.jobStore.misfireThreshold", "100"));
	}

	private static java.util.Properties quartzProperties(org.springframework.context.ApplicationContext context) {
		Object factory = context.getBean(org.springframework.scheduling.quartz.SchedulerFactoryBean.class);
		return (java.util.Properties) org.springframework.test.util.ReflectionTestUtils.getField(factory,
				"quartzProperties");
	}

	@Test
	void theStartupDelayIsCountedFromTheGrant() {
		this.contextRunner.withPropertyValues("spring.application.name=gated-delay", "spring.quartz.startup-delay=2s")
			.withBean(GrantTimes.class)
			.run((context) -> {
				ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
				Scheduler scheduler = context.getBean(Scheduler.class);
				await().atMost(Duration.ofSeconds(5)).until(election::isLeader);
				// was: started at the grant, the delay ignored
				assertThat(scheduler.isStarted()).isFalse();
				await().atMost(Duration.ofSeconds(6)).until(() -> scheduler.isStarted() && !scheduler.isInStandbyMode());
				long granted = context.getBean(GrantTimes.class).last;
				// the gate hears of the grant within milliseconds of this listener, before or after it
				assertThat(System.nanoTime() - granted).isGreaterThanOrEqualTo(Duration.ofMillis(1900).toNanos());
			});
	}

	@Test
	void aGrantRevokedWithinTheStartupDelayNeverStartsTheScheduler() {
		this.contextRunner.withPropertyValues("spring.application.name=gated-delay-revoked", "spring.quartz.startup-delay=1s")
			.run((context) -> {
				ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
				Scheduler scheduler = context.getBean(Scheduler.class);
				await().atMost(Duration.ofSeconds(5)).until(election::isLeader);
				election.stop();
				assertThat(election.isLeader()).isFalse();
				int before = runs.get();
				// past the delay: the start queued for the revoked grant must not happen
				await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3))
					.until(() -> !scheduler.isStarted() && runs.get() == before);
			});
	}

	static class GrantTimes {

		volatile long last;

		@org.springframework.context.event.EventListener
		void granted(dev.zkspring.leader.LeadershipGrantedEvent event) {
			this.last = System.nanoTime();
		}

	}

	@Test
	void leaderGatedFalseLeavesBootsSchedulerToStartWithTheContext() {
		this.contextRunner.withPropertyValues("spring.application.name=ungated", "zk.quartz.leader-gated=false")
			.run((context) -> {
				// nothing else needs a leader here: no election either
				assertThat(context).doesNotHaveBean(LeaderGatedSchedulerCustomizer.class)
					.doesNotHaveBean(ZkLeaderElection.class);
				assertThat(context.getBean(Scheduler.class).isStarted()).isTrue();
			});
	}

	@Test
	void backsOffWhenSpringBootsQuartzIsMissing() {
		this.contextRunner.withPropertyValues("spring.application.name=no-quartz")
			.withClassLoader(new FilteredClassLoader(Scheduler.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(LeaderGatedSchedulerCustomizer.class)
				// no scheduler to gate, so the job beans need no leader (ZkOptionalLibrariesTests for more)
				.doesNotHaveBean(ZkLeaderElection.class));
	}

	@Test
	void bindsTheRevokePolicy() {
		this.contextRunner.withPropertyValues("spring.application.name=policy", "zk.quartz.on-revoke=interrupt")
			.run((context) -> assertThat(context.getBean(ZkQuartzProperties.class).getOnRevoke())
				.isEqualTo(RevokePolicy.INTERRUPT));
	}

	@Test
	void rejectsAnUnknownRevokePolicyNamingTheProperty() {
		this.contextRunner.withPropertyValues("spring.application.name=policy", "zk.quartz.on-revoke=pause")
			.run((context) -> assertThat(context.getStartupFailure())
				.hasStackTraceContaining("Failed to bind properties under 'zk.quartz.on-revoke'"));
	}

	@Configuration(proxyBeanMethods = false)
	static class CountingJobConfiguration {

		@Bean
		JobDetail countingJob() {
			return JobBuilder.newJob(CountingJob.class).withIdentity("counting").storeDurably().build();
		}

		@Bean
		Trigger countingTrigger(JobDetail countingJob) {
			return TriggerBuilder.newTrigger()
				.forJob(countingJob)
				.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(100).repeatForever())
				.build();
		}

	}

	public static class CountingJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
			lastEpoch.set((int) LeaderJobs.epoch(context));
			runs.incrementAndGet();
		}

	}

}
