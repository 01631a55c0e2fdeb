package dev.zkspring.leader.jobs;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quartz.CronScheduleBuilder;
import org.quartz.CronTrigger;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Schedules from the configuration at their edges: intervals Quartz cannot count are refused by key
 * (the job keeps its schedule, other entries apply, later listeners hear the change, startup goes on);
 * a schedule given by a placeholder follows the placeholder's key; a configured schedule keeps the
 * misfire instruction coded on the job's trigger.
 */
@ExtendWith(OutputCaptureExtension.class)
class JobScheduleEdgeTests {

	private static final String NEVER = JobOperationsApp.NEVER;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final AppInstances instances = new AppInstances(zk, EdgeJobsApp.class);

	private CuratorFramework writer;

	@BeforeEach
	void clear() throws Exception {
		EdgeJobsApp.changes.clear();
		this.writer = zk.newClient();
	}

	@AfterEach
	void close() {
		this.writer.close();
	}

	@ParameterizedTest
	@ValueSource(strings = { "500us", "999999999999d" })
	void intervalQuartzCannotCountIsRefusedByKeyAndTheOtherEntriesApply(String interval, CapturedOutput output)
			throws Exception {
		Instance a = this.instances.start("a");
		JobOperationsApp.publish(this.writer, this.instances.group(), "{\"zk\":{\"quartz\":{\"jobs\":{\"alpha\":{\"interval\":\""
				+ interval + "\"},\"beta\":{\"interval\":\"7s\"}}}}}");

		await().atMost(Duration.ofSeconds(10)).until(() -> EdgeJobsApp.changes.size() == 1);
		assertThat(intervalOf(a, "beta-trigger")).isEqualTo(7_000);
		assertThat(cronOf(a, "alpha-trigger")).isEqualTo(NEVER);
		assertThat(output).contains("Refused zk.quartz.jobs.alpha.interval").doesNotContain(interval + ")");
	}

	@Test
	void intervalQuartzCannotCountAtStartupIsRefusedAndTheContextStarts(CapturedOutput output) throws Exception {
		Instance a = this.instances.start("a", "zk.quartz.jobs.alpha.interval=500us", "zk.quartz.jobs.beta.interval=7s");

		assertThat(a.context().isActive()).isTrue();
		assertThat(cronOf(a, "alpha-trigger")).isEqualTo(NEVER);
		assertThat(intervalOf(a, "beta-trigger")).isEqualTo(7_000);
		assertThat(output).contains("Refused zk.quartz.jobs.alpha.interval");
	}

	@Test
	void scheduleGivenByAPlaceholderFollowsThePlaceholdersKeyOnTheRunningLeader() throws Exception {
		Instance a = this.instances.start("a", "zk.quartz.jobs.alpha.cron=${alpha.cron}", "alpha.cron=0 0 0 1 1 ? 2098");
		await().atMost(Duration.ofSeconds(10)).until(() -> a.election().isLeader());
		assertThat(cronOf(a, "alpha-trigger")).isEqualTo("0 0 0 1 1 ? 2098");

		JobOperationsApp.publish(this.writer, this.instances.group(), "{\"alpha\":{\"cron\":\"0 0 0 1 1 ? 2097\"}}");

		await().atMost(Duration.ofSeconds(10)).until(() -> cronOf(a, "alpha-trigger").equals("0 0 0 1 1 ? 2097"));
	}

	@Test
	void configuredScheduleKeepsTheMisfireInstructionCodedOnTheTrigger() throws Exception {
		Instance a = this.instances.start("a");
		JobOperationsApp.publish(this.writer, this.instances.group(),
				"{\"zk\":{\"quartz\":{\"jobs\":{\"alpha\":{\"cron\":\"0 0 0 1 1 ? 2098\"},\"beta\":{\"interval\":\"7s\"}}}}}");
		await().atMost(Duration.ofSeconds(10)).until(() -> cronOf(a, "alpha-trigger").equals("0 0 0 1 1 ? 2098")
				&& intervalOf(a, "beta-trigger") == 7_000);
		assertThat(trigger(a, "alpha-trigger").getMisfireInstruction())
			.isEqualTo(CronTrigger.MISFIRE_INSTRUCTION_DO_NOTHING);
		assertThat(trigger(a, "beta-trigger").getMisfireInstruction())
			.isEqualTo(SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_EXISTING_COUNT);

		// across types: a coded "do nothing" stays "wait for the next fire time"
		JobOperationsApp.publish(this.writer, this.instances.group(),
				"{\"zk\":{\"quartz\":{\"jobs\":{\"alpha\":{\"interval\":\"9s\"},\"beta\":{\"cron\":\"0 0 0 1 1 ? 2098\"}}}}}");
		await().atMost(Duration.ofSeconds(10)).until(() -> trigger(a, "alpha-trigger") instanceof SimpleTrigger
				&& trigger(a, "beta-trigger") instanceof CronTrigger);
		assertThat(trigger(a, "alpha-trigger").getMisfireInstruction())
			.isEqualTo(SimpleTrigger.MISFIRE_INSTRUCTION_RESCHEDULE_NEXT_WITH_REMAINING_COUNT);
		assertThat(trigger(a, "beta-trigger").getMisfireInstruction())
			.isEqualTo(CronTrigger.MISFIRE_INSTRUCTION_DO_NOTHING);
	}

	private static Trigger trigger(Instance instance, String name) throws Exception {
		return instance.context().getBean(Scheduler.class).getTrigger(TriggerKey.triggerKey(name));
	}

	private static String cronOf(Instance instance, String name) throws Exception {
		Trigger trigger = trigger(instance, name);
		return (trigger instanceof CronTrigger cron) ? cron.getCronExpression() : String.valueOf(trigger);
	}

	private static long intervalOf(Instance instance, String name) throws Exception {
		Trigger trigger = trigger(instance, name);
		return (trigger instanceof SimpleTrigger simple) ? simple.getRepeatInterval() : -1;
	}

	/**
	 * Two jobs that never fire on their own: {@code alpha} on a cron coded "do nothing" on misfire,
	 * {@code beta} on an interval coded "next with existing count"; and a listener after the others
	 * that records each configuration change.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class, QuartzAutoConfiguration.class,
			ZkLeaderAutoConfiguration.class, ZkQuartzAutoConfiguration.class })
	static class EdgeJobsApp {

		static final List<ZkConfigChangedEvent> changes = new CopyOnWriteArrayList<>();

		@Bean
		JobDetail alpha() {
			return JobBuilder.newJob(JobOperationsApp.CountingJob.class).withIdentity("alpha").storeDurably().build();
		}

		@Bean
		JobDetail beta() {
			return JobBuilder.newJob(JobOperationsApp.CountingJob.class).withIdentity("beta").storeDurably().build();
		}

		@Bean
		Trigger alphaTrigger(JobDetail alpha) {
			return TriggerBuilder.newTrigger().forJob(alpha).withIdentity("alpha-trigger")
				.withSchedule(CronScheduleBuilder.cronSchedule(NEVER).withMisfireHandlingInstructionDoNothing()).build();
		}

		@Bean
		Trigger betaTrigger(JobDetail beta) {
			return TriggerBuilder.newTrigger().forJob(beta).withIdentity("beta-trigger")
				.startAt(new java.util.Date(4070908800000L))
				.withSchedule(SimpleScheduleBuilder.repeatHourlyForever().withMisfireHandlingInstructionNextWithExistingCount())
				.build();
		}

		@Bean
		@Order(Ordered.LOWEST_PRECEDENCE)
		ApplicationListener<ZkConfigChangedEvent> lastListener() {
			return changes::add;
		}

	}

}
