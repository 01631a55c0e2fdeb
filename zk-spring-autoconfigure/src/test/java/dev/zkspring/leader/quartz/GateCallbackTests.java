package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobKey;
import org.quartz.JobListener;
import org.quartz.Trigger;
import org.quartz.Trigger.CompletedExecutionInstruction;
import org.quartz.listeners.TriggerListenerSupport;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.leader.quartz.GatedQuartz.Instance;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The gate learns that an execution ended whatever the application's listeners do: Quartz drops a
 * finished execution from its running list before the trigger listeners' {@code triggerComplete}, and
 * skips every later callback when an application listener throws.
 */
@ExtendWith(OutputCaptureExtension.class)
class GateCallbackTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final GatedQuartz quartz = new GatedQuartz();

	@Test
	void aJobCompletedBeforeAGracefulHandoverIsNotReRunWhileASlowTriggerListenerHoldsItsCompletion() throws Exception {
		CountDownLatch completing = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Instance a = this.quartz.start("a", zk.newClient(), Duration.ofSeconds(5),
				(scheduler) -> scheduler.getListenerManager().addTriggerListener(new TriggerListenerSupport() {

					@Override
					public String getName() {
						return "slow-completion";
					}

					@Override
					public void triggerComplete(Trigger trigger, JobExecutionContext context,
							CompletedExecutionInstruction instruction) {
						completing.countDown();
						hold(release);
					}

				}));
		Instance b = this.quartz.start("b", zk.newClient(), Duration.ofSeconds(5), GatedQuartz.Setup.NONE);
		a.scheduler().triggerJob(JobKey.jobKey("recoverable"));
		assertThat(completing.await(5, TimeUnit.SECONDS)).isTrue();
		Thread stopping = new Thread(a.election()::stop);
		try {
			stopping.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> b.election().isLeader() && b.scheduler().isStarted());
			await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> GatedQuartz.count("b") == 0);
		}
		finally {
			release.countDown();
			stopping.join(10_000);
		}
		assertThat(GatedQuartz.runs).hasSize(1).allMatch((run) -> run.startsWith("a fresh recoverable"));
	}

	@Test
	void aThrowingJobListenerChangesNothingAboutRunOnceAndHandoverTimeAndIsLoggedOnce(CapturedOutput output)
			throws Exception {
		Instance a = this.quartz.start("a", zk.newClient(), Duration.ofSeconds(5),
				(scheduler) -> scheduler.getListenerManager().addJobListener(new ThrowingJobListener()));
		Instance b = this.quartz.start("b", zk.newClient(), Duration.ofSeconds(5), GatedQuartz.Setup.NONE);
		a.scheduler().triggerJob(JobKey.jobKey("recoverable"));
		a.scheduler().triggerJob(JobKey.jobKey("recoverable"));
		await().atMost(Duration.ofSeconds(5)).until(() -> GatedQuartz.count("a fresh recoverable") == 2);
		CuratorFramework observer = zk.newClient();
		await().atMost(Duration.ofSeconds(5))
			.until(() -> observer.getChildren().forPath(this.quartz.latchPath + ".in-flight").isEmpty());

		long start = System.nanoTime();
		a.election().stop();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));

		await().atMost(Duration.ofSeconds(5)).until(() -> b.election().isLeader() && b.scheduler().isStarted());
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> GatedQuartz.count("b") == 0);
		assertThat(output.getOut().split("the leader gate ended the execution itself", -1)).hasSize(2);
		assertThat(output.getOut()).contains("JobListener 'app-audit'");
	}

	@Test
	void aJobListenerThrowingBeforeTheJobRunsDoesNotHoldUpTheHandover(CapturedOutput output) throws Exception {
		CountDownLatch told = new CountDownLatch(1);
		Instance a = this.quartz.start("a", zk.newClient(), Duration.ofSeconds(5),
				(scheduler) -> scheduler.getListenerManager().addJobListener(new ThrowingJobListener() {

					@Override
					public void jobToBeExecuted(JobExecutionContext context) {
						told.countDown();
						throw new IllegalStateException("audit store down");
					}

				}));
		Instance b = this.quartz.start("b", zk.newClient(), Duration.ofSeconds(5), GatedQuartz.Setup.NONE);
		a.scheduler().triggerJob(JobKey.jobKey("recoverable"));
		assertThat(told.await(5, TimeUnit.SECONDS)).isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> output.getOut().contains("the leader gate ended the execution"));

		long start = System.nanoTime();
		a.election().stop();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
		await().atMost(Duration.ofSeconds(5)).until(() -> b.election().isLeader() && b.scheduler().isStarted());
		assertThat(GatedQuartz.runs).isEmpty();
	}

	@Test
	void jobDataCannotNameTheRecordsTheGateDeletes() throws Exception {
		Instance a = this.quartz.start("a", zk.newClient(), Duration.ofSeconds(2), GatedQuartz.Setup.NONE);
		CuratorFramework observer = zk.newClient();
		String victim = this.quartz.latchPath + "-victim";
		observer.create().forPath(victim + "-1");
		observer.create().forPath(victim + "-2");

		for (String key : List.of("zk.leader.in-flight", "zk.leader.recovers")) {
			String node = victim + (key.equals("zk.leader.in-flight") ? "-1" : "-2");
			a.scheduler().triggerJob(JobKey.jobKey("plain"), new JobDataMap(Map.of(key, node)));
			a.scheduler().triggerJob(JobKey.jobKey("recoverable"), new JobDataMap(Map.of(key, node)));
		}

		await().atMost(Duration.ofSeconds(5)).until(() -> GatedQuartz.runs.size() == 4);
		await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
			.until(() -> observer.checkExists().forPath(victim + "-1") != null
					&& observer.checkExists().forPath(victim + "-2") != null);
		await().atMost(Duration.ofSeconds(5))
			.until(() -> observer.getChildren().forPath(this.quartz.latchPath + ".in-flight").isEmpty());
	}

	private static void hold(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	static class ThrowingJobListener implements JobListener {

		@Override
		public String getName() {
			return "app-audit";
		}

		@Override
		public void jobToBeExecuted(JobExecutionContext context) {
		}

		@Override
		public void jobExecutionVetoed(JobExecutionContext context) {
		}

		@Override
		public void jobWasExecuted(JobExecutionContext context, JobExecutionException jobException) {
			throw new IllegalStateException("audit store down");
		}

	}

}
