package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.Date;
import java.util.Properties;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.CalendarIntervalScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A trigger scheduled at runtime on the leader that cannot be mirrored to ZooKeeper (here a calendar
 * interval trigger) is named in a warning: it will not survive failover. Mirrored ones are not.
 */
@ExtendWith(OutputCaptureExtension.class)
class RuntimeTriggerWarningTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void warnsNamingATriggerScheduledAtRuntimeThatCannotBeMirroredButNotOnesDefinedBeforeStartMirroredOrFiredOnce(CapturedOutput output)
			throws Exception {
		ZkLeaderElection election = new ZkLeaderElection(zk.newClient(), "/leader/runtime-" + UUID.randomUUID(),
				() -> "a", Duration.ofSeconds(1), Duration.ZERO);
		Properties properties = new Properties();
		properties.setProperty("org.quartz.scheduler.instanceName", "runtime-" + UUID.randomUUID());
		properties.setProperty("org.quartz.threadPool.threadCount", "1");
		properties.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
		Scheduler scheduler = new StdSchedulerFactory(properties).getScheduler();
		try {
			new SchedulerGate(scheduler, election, LeaderInternals::records, RevokePolicy.STANDBY).attach();
			scheduler.scheduleJob(JobBuilder.newJob(NoJob.class).withIdentity("at-startup").build(), hourly("at-startup"));
			election.start();
			await().atMost(Duration.ofSeconds(5)).until(() -> election.isLeader() && scheduler.isStarted());
			scheduler.triggerJob(JobKey.jobKey("at-startup"));
			scheduler.scheduleJob(JobBuilder.newJob(NoJob.class).withIdentity("added").build(),
					TriggerBuilder.newTrigger().withIdentity("added-later")
						.withSchedule(CalendarIntervalScheduleBuilder.calendarIntervalSchedule().withIntervalInHours(1))
						.startAt(new Date(System.currentTimeMillis() + 3_600_000)).build());
			scheduler.scheduleJob(JobBuilder.newJob(NoJob.class).withIdentity("mirrored").build(), hourly("mirrored"));

			assertThat(output).contains("Trigger DEFAULT.added-later of job DEFAULT.added was scheduled at runtime and "
					+ "cannot be mirrored to ZooKeeper (only cron and simple triggers are mirrored, not CalendarIntervalTriggerImpl)")
				.contains("will not survive a failover")
				.doesNotContain("Trigger DEFAULT.mirrored")
				.doesNotContain("Trigger DEFAULT.at-startup")
				.doesNotContain("Trigger DEFAULT.MT_");
		}
		finally {
			scheduler.shutdown(false);
			election.stop();
		}
	}

	private static org.quartz.Trigger hourly(String name) {
		return TriggerBuilder.newTrigger().withIdentity(name).startAt(new Date(System.currentTimeMillis() + 3_600_000))
			.withSchedule(SimpleScheduleBuilder.repeatHourlyForever()).build();
	}

	public static class NoJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
		}

	}

}
