package dev.zkspring.leader.jobs;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.CronTrigger;
import org.quartz.Scheduler;
import org.quartz.SimpleTrigger;
import org.quartz.TriggerKey;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.jobs.JobOperationsApp.Run;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Schedules from the configuration: {@code zk.quartz.jobs.report.*} in a ZooKeeper document reaches
 * every instance; the leader runs on it, a successor after a handover too, each fire time once; bad
 * entries are refused by key on every instance and the job keeps its schedule.
 */
@ExtendWith(OutputCaptureExtension.class)
class JobScheduleIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final AppInstances instances = JobOperationsApp.instances(zk, "zk.leader.drain-timeout=1s");

	@Test
	void cronChangedInTheConfigCenterReachesTheLeaderAndSurvivesAHandover(CapturedOutput output) throws Exception {
		Instance a = this.instances.start("a");
		Instance b = this.instances.start("b");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		assertThat(JobOperationsApp.runs).isEmpty();

		JobOperationsApp.publish(this.instances.writer(), this.instances.group(), JobOperationsApp.schedule("cron", "* * * * * ?"));

		await().atMost(Duration.ofSeconds(10)).until(() -> JobOperationsApp.count("a") >= 2);
		// the follower took the same schedule, so the handover lands on it
		await().atMost(Duration.ofSeconds(5)).until(() -> cronOf(b).equals("* * * * * ?"));
		// a startup trigger rescheduled on a follower is no trigger scheduled at runtime
		assertThat(output).doesNotContain("scheduled at runtime");
		a.context().close();
		await().atMost(Duration.ofSeconds(10)).until(() -> JobOperationsApp.count("b") >= 2);
		assertEachFireTimeOnce();
		assertThat(JobOperationsApp.runs).extracting(Run::instance).containsOnly("a", "b");
	}

	@Test
	void cronChangedJustAfterAFiringDoesNotRepeatThatFireTime() throws Exception {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		JobOperationsApp.publish(this.instances.writer(), this.instances.group(), JobOperationsApp.schedule("cron", "* * * * * ?"));
		await().atMost(Duration.ofSeconds(10)).until(() -> JobOperationsApp.count("a") >= 1);
		// a cron trigger starting now would compute its first fire time from one second earlier: the one that just ran
		JobOperationsApp.afterRun = () -> {
			try {
				JobOperationsApp.publish(this.instances.writer(), this.instances.group(),
						JobOperationsApp.schedule("cron", "*/1 * * * * ?"));
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		};
		await().atMost(Duration.ofSeconds(5)).until(() -> cronOf(a).equals("*/1 * * * * ?"));
		long changed = JobOperationsApp.count("a");
		await().atMost(Duration.ofSeconds(5)).until(() -> JobOperationsApp.count("a") >= changed + 2);
		assertEachFireTimeOnce();
	}

	@Test
	void intervalFromTheConfigCenterReplacesTheCronAndRemovingItRestoresTheStartupTrigger() throws Exception {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		JobOperationsApp.publish(this.instances.writer(), this.instances.group(), JobOperationsApp.schedule("interval", "300ms"));
		await().atMost(Duration.ofSeconds(10)).until(() -> JobOperationsApp.count("a") >= 3);
		assertThat(a.context().getBean(Scheduler.class).getTrigger(TriggerKey.triggerKey("report-trigger")))
			.isInstanceOf(SimpleTrigger.class);

		JobOperationsApp.publish(this.instances.writer(), this.instances.group(), "{}");

		await().atMost(Duration.ofSeconds(5)).until(() -> cronOf(a).equals(JobOperationsApp.NEVER));
		long after = JobOperationsApp.count("a");
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> JobOperationsApp.count("a") == after);
		assertEachFireTimeOnce();
	}

	@Test
	void invalidCronIsRefusedOnEveryInstanceWithItsKeyAndTheOldScheduleStays(CapturedOutput output) throws Exception {
		Instance a = this.instances.start("a");
		Instance b = this.instances.start("b");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		JobOperationsApp.publish(this.instances.writer(), this.instances.group(), JobOperationsApp.schedule("cron", "*/1 * * * * ?"));
		await().atMost(Duration.ofSeconds(10)).until(() -> JobOperationsApp.count("a") >= 1);

		JobOperationsApp.publish(this.instances.writer(), this.instances.group(), JobOperationsApp.schedule("cron", "61 * * * * BAD"));

		String refusal = "zk.quartz.jobs.report.cron is not a valid Quartz cron expression";
		await().atMost(Duration.ofSeconds(5)).until(() -> refusalOf(a).contains(refusal) && refusalOf(b).contains(refusal));
		assertThat(output).contains("Refused " + refusal).doesNotContain("BAD");
		assertThat(cronOf(a)).isEqualTo("*/1 * * * * ?");
		assertThat(cronOf(b)).isEqualTo("*/1 * * * * ?");
		long before = JobOperationsApp.count("a");
		await().atMost(Duration.ofSeconds(5)).until(() -> JobOperationsApp.count("a") >= before + 2);
	}

	@Test
	void negativeIntervalBothSchedulesAndAnUnknownJobAreRefusedByKey(CapturedOutput output) throws Exception {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);

		JobOperationsApp.publish(this.instances.writer(), this.instances.group(),
				"{\"zk\":{\"quartz\":{\"jobs\":{\"report\":{\"interval\":\"-5s\"},\"nosuch\":{\"cron\":\"* * * * * ?\"}}}}}");
		await().atMost(Duration.ofSeconds(5)).until(() -> output.toString().contains("zk.quartz.jobs.nosuch names no Quartz job"));
		assertThat(output).contains("Refused zk.quartz.jobs.report.interval must be positive");

		JobOperationsApp.publish(this.instances.writer(), this.instances.group(),
				"{\"zk\":{\"quartz\":{\"jobs\":{\"report\":{\"interval\":\"1s\",\"cron\":\"* * * * * ?\"}}}}}");
		await().atMost(Duration.ofSeconds(5)).until(() -> output.toString().contains("zk.quartz.jobs.report sets both cron and interval"));
		assertThat(cronOf(a)).isEqualTo(JobOperationsApp.NEVER);
		assertThat(JobOperationsApp.runs).isEmpty();
	}

	private static String cronOf(Instance instance) throws Exception {
		Object trigger = instance.context().getBean(Scheduler.class).getTrigger(TriggerKey.triggerKey("report-trigger"));
		return (trigger instanceof CronTrigger cron) ? cron.getCronExpression() : String.valueOf(trigger);
	}

	private static String refusalOf(Instance instance) {
		List<Map<String, Object>> jobs = instance.context().getBean(ZkJobs.class).describe();
		return String.valueOf(jobs.get(0).get("refused"));
	}

	private static void assertEachFireTimeOnce() {
		assertThat(JobOperationsApp.runs).extracting(Run::fireTime).doesNotHaveDuplicates();
	}

}
