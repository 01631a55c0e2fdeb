package dev.zkspring.leader.quartz;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.leader.ExecutionRecorder;
import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.LeaderJobs;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Triggers scheduled at runtime on the leader survive failover: the successor schedules them from
 * their records in ZooKeeper and resumes them after the last fire time its predecessor started.
 */
@ExtendWith(OutputCaptureExtension.class)
class RuntimeTriggerFailoverTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	static final ExecutionRecorder recorder = new ExecutionRecorder();

	/** Each run: scheduler name, trigger name, scheduled fire time. */
	static final List<Run> runs = new CopyOnWriteArrayList<>();

	private final String latchPath = "/leader/runtime-" + UUID.randomUUID();

	@RegisterExtension
	final StartedSchedulers started = new StartedSchedulers();

	private CuratorFramework clientOfA;

	private ZkLeaderElection a;

	private Scheduler schedulerOfA;

	private Scheduler schedulerOfB;

	@BeforeEach
	void startTwoInstances() throws Exception {
		runs.clear();
		this.clientOfA = zk.newClient();
		this.a = new ZkLeaderElection(this.clientOfA, this.latchPath, () -> "a", Duration.ofSeconds(2), Duration.ZERO);
		this.schedulerOfA = instance("a", this.a);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.a.isLeader() && this.schedulerOfA.isStarted());
		ZkLeaderElection b = new ZkLeaderElection(zk.newClient(), this.latchPath, () -> "b", Duration.ofSeconds(2),
				Duration.ZERO);
		this.schedulerOfB = instance("b", b);
		await().atMost(Duration.ofSeconds(5)).until(() -> this.a.participants().size() == 2);
	}

	@Test
	void cronAndSimpleTriggersScheduledAtRuntimeRunOnTheSuccessorAfterAGracefulStop() throws Exception {
		scheduleAtRuntime(this.schedulerOfA);
		await().atMost(Duration.ofSeconds(5)).until(() -> count("a", "cron") >= 2 && count("a", "simple") >= 3);

		this.a.stop();

		await().atMost(Duration.ofSeconds(6)).until(() -> count("b", "cron") >= 2 && count("b", "simple") >= 3);
		assertEachFireTimeOnce("cron");
		assertEachFireTimeOnce("simple");
		assertThat(runs).filteredOn((run) -> run.instance().equals("b") && !run.trigger().equals("startup"))
			.allMatch(Run::dataIntact);
		assertThat(records()).containsExactlyInAnyOrder("DEFAULT.cron", "DEFAULT.simple");
	}

	@Test
	void aCronTriggerScheduledAtRuntimeRunsOnTheSuccessorAfterTheLeadersSessionExpired() throws Exception {
		scheduleAtRuntime(this.schedulerOfA);
		await().atMost(Duration.ofSeconds(5)).until(() -> count("a", "cron") >= 2);

		ZooKeeperExtension.expireSession(this.clientOfA);

		await().atMost(Duration.ofSeconds(8)).until(() -> count("b", "cron") >= 2 && count("b", "simple") >= 2);
		assertEachFireTimeOnce("cron");
		assertEachFireTimeOnce("simple");
	}

	@Test
	void finishedRuntimeAndOneShotTriggersLeaveNoFireTimeRecordBehind() throws Exception {
		this.schedulerOfA.addJob(JobBuilder.newJob(RuntimeJob.class).withIdentity("manual").storeDurably().build(), false);
		this.schedulerOfA.triggerJob(JobKey.jobKey("manual"));
		this.schedulerOfA.scheduleJob(JobBuilder.newJob(RuntimeJob.class).withIdentity("twice").build(),
				TriggerBuilder.newTrigger().withIdentity("twice").startAt(new Date(System.currentTimeMillis() + 300))
					.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(200).withRepeatCount(1))
					.build());
		await().atMost(Duration.ofSeconds(5))
			.until(() -> count("a", "twice") == 2 && runs.stream().anyMatch((run) -> run.trigger().startsWith("MT_")));

		await().atMost(Duration.ofSeconds(5))
			.until(() -> fireTimeRecords().stream().noneMatch((name) -> name.contains("MT_") || name.contains("twice")));
	}

	@Test
	void anUnscheduledTriggerDoesNotComeBackOnTheSuccessor() throws Exception {
		scheduleAtRuntime(this.schedulerOfA);
		await().atMost(Duration.ofSeconds(5)).until(() -> count("a", "simple") >= 1);
		this.schedulerOfA.unscheduleJob(TriggerKey.triggerKey("simple"));
		this.schedulerOfA.deleteJob(JobKey.jobKey("runtime-cron"));
		assertThat(records()).isEmpty();

		this.a.stop();

		await().atMost(Duration.ofSeconds(5)).until(() -> this.schedulerOfB.isStarted());
		await().during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(3))
			.until(() -> count("b", "simple") + count("b", "cron") == 0);
		assertThat(this.schedulerOfB.checkExists(TriggerKey.triggerKey("simple"))).isFalse();
		assertThat(this.schedulerOfB.checkExists(TriggerKey.triggerKey("cron"))).isFalse();
	}

	@Test
	void aMalformedRecordAndOneWithAMissingJobClassAreSkippedWithAWarningAndTheRestRun(CapturedOutput output)
			throws Exception {
		scheduleAtRuntime(this.schedulerOfA);
		String root = this.latchPath + ".triggers";
		this.clientOfA.create().forPath(root + "/garbage", "{\"format\": 1, \"type\":".getBytes(StandardCharsets.UTF_8));
		JobDetail job = JobBuilder.newJob(RuntimeJob.class).withIdentity("ghost").build();
		String ghost = new String(TriggerRecord.encode(simple("ghost", 200), job), StandardCharsets.UTF_8)
			.replace(RuntimeJob.class.getName(), "com.example.MissingJob");
		this.clientOfA.create().forPath(root + "/ghost", ghost.getBytes(StandardCharsets.UTF_8));

		this.a.stop();

		await().atMost(Duration.ofSeconds(6)).until(() -> count("b", "cron") >= 1 && count("b", "simple") >= 2);
		assertThat(output).contains("Skipped the trigger record " + root + "/garbage")
			.contains("Skipped the trigger record " + root + "/ghost: job class com.example.MissingJob is not the class of a "
					+ "job this application declared");
		assertThat(this.schedulerOfB.checkExists(TriggerKey.triggerKey("ghost"))).isFalse();
	}

	@Test
	void aDeposedLeaderCannotWriteARecord(CapturedOutput output) throws Exception {
		// a successor's claim changes the latch node's version; a has not heard of it yet
		zk.newClient().setData().forPath(this.latchPath, "successor".getBytes(StandardCharsets.UTF_8));

		this.schedulerOfA.scheduleJob(JobBuilder.newJob(RuntimeJob.class).withIdentity("late").build(), simple("late", 200));

		assertThat(records()).isEmpty();
		assertThat(output).contains("Trigger DEFAULT.late was scheduled at runtime while this instance's leadership ended");
	}

	@Test
	void aTriggerScheduledOnAStandbyIsNamedInAWarningAndNotMirrored(CapturedOutput output) throws Exception {
		this.schedulerOfB.scheduleJob(JobBuilder.newJob(RuntimeJob.class).withIdentity("on-b").build(), simple("on-b", 200));

		assertThat(records()).isEmpty();
		assertThat(output).contains("Trigger DEFAULT.on-b of job DEFAULT.on-b was scheduled at runtime on an instance "
				+ "that does not lead: it runs only if this instance leads, and is not mirrored");
	}

	private void scheduleAtRuntime(Scheduler scheduler) throws Exception {
		long now = System.currentTimeMillis();
		scheduler.scheduleJob(JobBuilder.newJob(RuntimeJob.class).withIdentity("runtime-cron")
			.usingJobData("text", "x").usingJobData("count", 3L).usingJobData("small", 2).usingJobData("flag", true)
			.build(),
				TriggerBuilder.newTrigger().withIdentity("cron").startAt(new Date(now))
					.withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?")).build());
		scheduler.addJob(JobBuilder.newJob(RuntimeJob.class).withIdentity("runtime-simple").storeDurably().build(), false);
		scheduler.scheduleJob(TriggerBuilder.newTrigger().withIdentity("simple").forJob("runtime-simple")
			.usingJobData("text", "x").usingJobData("count", 3L).usingJobData("small", 2).usingJobData("flag", true)
			.startAt(new Date((now / 300 + 1) * 300))
			.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(300).repeatForever())
			.build());
	}

	/** The names of the fire-time records in ZooKeeper. */
	private List<String> fireTimeRecords() throws Exception {
		String root = this.latchPath + ".fire-times";
		return (this.clientOfA.checkExists().forPath(root) != null) ? this.clientOfA.getChildren().forPath(root) : List.of();
	}

	/** The names of the trigger records in ZooKeeper; none before the first is written. */
	private List<String> records() throws Exception {
		String root = this.latchPath + ".triggers";
		return (this.clientOfA.checkExists().forPath(root) != null) ? this.clientOfA.getChildren().forPath(root) : List.of();
	}

	private static Trigger simple(String name, long interval) {
		return TriggerBuilder.newTrigger().withIdentity(name).forJob(name)
			.startAt(new Date(System.currentTimeMillis() + interval))
			.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(interval).repeatForever())
			.build();
	}

	private static long count(String instance, String trigger) {
		return runs.stream().filter((run) -> run.instance().equals(instance) && run.trigger().equals(trigger)).count();
	}

	private static void assertEachFireTimeOnce(String trigger) {
		List<Long> fireTimes = runs.stream().filter((run) -> run.trigger().equals(trigger)).map(Run::fireTime).toList();
		assertThat(fireTimes).as("fire times of %s", trigger).doesNotHaveDuplicates();
	}

	private Scheduler instance(String id, ZkLeaderElection election) throws Exception {
		this.started.add(election);
		Scheduler scheduler = this.started.scheduler(id + "-" + UUID.randomUUID(), 2);
		new SchedulerGate(scheduler, election, LeaderInternals::records, RevokePolicy.STANDBY).attach();
		// defined at startup on every instance: moved past its recorded fire time on a grant, never mirrored
		scheduler.scheduleJob(JobBuilder.newJob(RuntimeJob.class).withIdentity("startup").build(), simple("startup", 300));
		election.start();
		return scheduler;
	}

	record Run(String instance, String trigger, long fireTime, boolean dataIntact) {
	}

	public static class RuntimeJob implements Job {

		@Override
		public void execute(JobExecutionContext context) throws org.quartz.JobExecutionException {
			long start = System.nanoTime();
			try {
				String instance = context.getScheduler().getSchedulerName().substring(0, 1);
				var data = context.getMergedJobDataMap();
				boolean intact = "x".equals(data.getString("text")) && data.getLong("count") == 3L
						&& data.getInt("small") == 2 && data.getBoolean("flag");
				runs.add(new Run(instance, context.getTrigger().getKey().getName(),
						context.getScheduledFireTime().getTime(), intact));
				if (context.getTrigger().getKey().getName().equals("cron")) {
					recorder.record(instance, LeaderJobs.epoch(context), start, System.nanoTime());
				}
			}
			catch (Exception ex) {
				throw new org.quartz.JobExecutionException(ex);
			}
		}

	}

}
