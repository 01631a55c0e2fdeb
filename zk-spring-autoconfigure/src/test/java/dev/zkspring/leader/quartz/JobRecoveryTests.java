package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;

import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A job whose {@code JobDetail} requests recovery and whose leader ended during its execution is
 * re-run once by the successor, with {@code isRecovering()} true; a job that does not request it is not.
 */
class JobRecoveryTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	/** Each run: the instance, whether Quartz marked it recovering, the job. */
	static final List<String> runs = new CopyOnWriteArrayList<>();

	static volatile CountDownLatch entered = new CountDownLatch(1);

	static volatile CountDownLatch release = new CountDownLatch(1);

	private final String latchPath = "/leader/recovery-" + UUID.randomUUID();

	@RegisterExtension
	final StartedSchedulers started = new StartedSchedulers();

	@AfterEach
	void stopAll() {
		release.countDown();
	}

	@Test
	void successorReRunsOnceAJobRequestingRecoveryWhoseLeaderSessionExpiredDuringIt() throws Exception {
		runs.clear();
		CuratorFramework clientOfA = zk.newClient();
		Scheduler a = instance("a", clientOfA);
		Scheduler b = instance("b", zk.newClient());
		entered = new CountDownLatch(2);
		release = new CountDownLatch(1);
		a.triggerJob(JobKey.jobKey("recoverable"));
		a.triggerJob(JobKey.jobKey("plain"));
		assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();

		ZooKeeperExtension.expireSession(clientOfA);

		await().atMost(Duration.ofSeconds(10)).until(() -> runs.contains("b recovering recoverable"));
		release.countDown();
		await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(3))
			.until(() -> runs.stream().filter((run) -> run.startsWith("b")).count() == 1);
		assertThat(runs).containsExactlyInAnyOrder("a fresh recoverable", "a fresh plain", "b recovering recoverable");
		assertThat(b.isStarted()).isTrue();
	}

	@Test
	void successorReRunsAJobRequestingRecoveryWhoseLeaderDiedDuringIt() throws Exception {
		runs.clear();
		CuratorFramework clientOfA = zk.newClient();
		Scheduler a = instance("a", clientOfA);
		instance("b", zk.newClient());
		entered = new CountDownLatch(1);
		release = new CountDownLatch(1);
		a.triggerJob(JobKey.jobKey("recoverable"));
		assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();

		// the leader's process dies: its connection closes, and nothing it runs reaches ZooKeeper again
		clientOfA.close();

		await().atMost(Duration.ofSeconds(10)).until(() -> runs.contains("b recovering recoverable"));
		assertThat(runs).containsExactly("a fresh recoverable", "b recovering recoverable");
		// the recovery's one-shot trigger fires nowhere again: its fire-time record does not stay behind
		CuratorFramework observer = zk.newClient();
		await().atMost(Duration.ofSeconds(5)).until(() -> observer.getChildren().forPath(this.latchPath + ".fire-times")
			.stream()
			.noneMatch((name) -> name.contains("recover-")));
	}

	private Scheduler instance(String id, CuratorFramework client) throws Exception {
		ZkLeaderElection election = new ZkLeaderElection(client, this.latchPath, () -> id, Duration.ofSeconds(1),
				Duration.ZERO);
		this.started.add(election);
		Scheduler scheduler = this.started.scheduler("recovery-" + id, 2);
		scheduler.addJob(JobBuilder.newJob(BlockingJob.class).withIdentity("recoverable").usingJobData("id", id)
			.requestRecovery().storeDurably().build(), false);
		scheduler.addJob(JobBuilder.newJob(BlockingJob.class).withIdentity("plain").usingJobData("id", id)
			.storeDurably().build(), false);
		new SchedulerGate(scheduler, election, LeaderInternals::records, RevokePolicy.STANDBY).attach();
		election.start();
		if (id.equals("a")) {
			await().atMost(Duration.ofSeconds(5)).until(() -> election.isLeader() && scheduler.isStarted());
		}
		else {
			await().atMost(Duration.ofSeconds(5)).until(() -> election.participants().size() == 2);
		}
		return scheduler;
	}

	public static class BlockingJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
			String id = context.getMergedJobDataMap().getString("id");
			runs.add(id + (context.isRecovering() ? " recovering " : " fresh ") + context.getJobDetail().getKey().getName());
			if (id.equals("a")) {
				entered.countDown();
				try {
					release.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		}

	}

}
