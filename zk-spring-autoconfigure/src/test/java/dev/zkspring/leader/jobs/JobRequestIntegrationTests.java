package dev.zkspring.leader.jobs;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.jobs.JobsAccess;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.JobAnswer.Status;
import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.jobs.JobOperationsApp.Run;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Run now, pause and resume asked on any instance and carried out by the leader: once, across
 * handovers, with clear answers for an unknown job, a bad action and no leader.
 */
class JobRequestIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final AppInstances instances = JobOperationsApp.instances(zk, "zk.leader.drain-timeout=1s",
			"zk.session-timeout=6s", "zk.connection-timeout=3s", "zk.quartz.request-timeout=5s");

	@Test
	void runNowOnAFollowerRunsOnceOnTheLeader() {
		Instance a = this.instances.start("a");
		Instance b = this.instances.start("b");
		Instance c = this.instances.start("c");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);

		JobAnswer answer = jobs(c).request("DEFAULT", "report", "run");

		assertThat(answer.status()).isEqualTo(Status.STARTED);
		assertThat(answer.message()).contains("started on a");
		await().atMost(Duration.ofSeconds(5)).until(() -> JobOperationsApp.runs.size() == 1);
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> JobOperationsApp.runs.size() == 1);
		assertThat(JobOperationsApp.runs).extracting(Run::instance).containsExactly("a");
		assertThat(JobOperationsApp.runs).extracting(Run::triggerGroup).containsExactly(RequestConsumer.RUN_GROUP);
		assertThat(JobOperationsApp.count("b") + JobOperationsApp.count("c")).isZero();
		assertThat(jobs(b).request("DEFAULT", "report", "run").status()).isEqualTo(Status.STARTED);
		await().atMost(Duration.ofSeconds(5)).until(() -> JobOperationsApp.runs.size() == 2);
	}

	@Test
	void pauseAskedOnAFollowerSurvivesAHandoverAndResumeEndsIt() throws Exception {
		Instance a = this.instances.start("a", "zk.quartz.jobs.report.interval=200ms");
		Instance b = this.instances.start("b", "zk.quartz.jobs.report.interval=200ms");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		await().atMost(Duration.ofSeconds(5)).until(() -> JobOperationsApp.count("a") >= 2);

		assertThat(jobs(b).request("DEFAULT", "report", "pause").status()).isEqualTo(Status.DONE);
		long paused = JobOperationsApp.runs.size();
		await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(2)).until(() -> JobOperationsApp.runs.size() <= paused + 1);
		assertThat(jobs(b).describe().get(0)).containsEntry("paused", true);

		a.context().close();
		await().atMost(Duration.ofSeconds(10)).until(b::isLeader);
		long handedOver = JobOperationsApp.runs.size();
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> JobOperationsApp.runs.size() == handedOver);
		assertThat(JobOperationsApp.count("b")).isZero();

		assertThat(jobs(b).request("DEFAULT", "report", "resume").status()).isEqualTo(Status.DONE);
		await().atMost(Duration.ofSeconds(5)).until(() -> JobOperationsApp.count("b") >= 2);
	}

	@Test
	void theLeaderIsWokenByEachRequestNotByItsSlowRecheck() {
		Instance a = this.instances.start("a");
		Instance b = this.instances.start("b");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		// each answer comes long before the leader's next re-check of the requests would pick the request up
		Duration bound = JobOperations.RECHECK.dividedBy(5);
		for (String action : List.of("pause", "resume", "pause", "resume")) {
			long asked = System.nanoTime();
			assertThat(jobs(b).request("DEFAULT", "report", action).status()).isEqualTo(Status.DONE);
			assertThat(Duration.ofNanos(System.nanoTime() - asked)).as(action).isLessThan(bound);
		}
	}

	@Test
	void aJobPausedByTheConfigurationCannotBeResumedByAnOperator() {
		Instance a = this.instances.start("a", "zk.quartz.jobs.report.paused=true");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		JobAnswer answer = jobs(a).request("DEFAULT", "report", "resume");
		assertThat(answer.status()).isEqualTo(Status.REFUSED);
		assertThat(answer.message()).contains("zk.quartz.jobs.report.paused");
	}

	@Test
	void unknownJobBadActionAndNoLeaderAreAnsweredClearly() {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);

		JobAnswer unknown = jobs(a).request("DEFAULT", "nosuch", "pause");
		assertThat(unknown.status()).isEqualTo(Status.UNKNOWN_JOB);
		assertThat(unknown.message()).contains("DEFAULT.nosuch").contains("DEFAULT.report");
		assertThat(jobs(a).request("OTHER", "report", "run").status()).isEqualTo(Status.UNKNOWN_JOB);
		JobAnswer bad = jobs(a).request("DEFAULT", "report", "delete");
		assertThat(bad.status()).isEqualTo(Status.REFUSED);
		assertThat(bad.message()).contains("run, pause or resume");

		a.election().stop();
		JobAnswer none = jobs(a).request("DEFAULT", "report", "run");
		assertThat(none.status()).isEqualTo(Status.NO_LEADER);
		assertThat(JobOperationsApp.runs).isEmpty();
	}

	@Test
	void runRequestPendingWhileTheLeadersSessionExpiresRunsOnceOnTheSuccessor() throws Exception {
		Instance a = this.instances.start("a");
		Instance b = this.instances.start("b");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		CountDownLatch successorLeads = new CountDownLatch(1);
		// the leader is about to consume the request with its firing: its session expires first
		jobs(a).consumer().beforeRunCommit = () -> {
			jobs(a).consumer().beforeRunCommit = null;
			try {
				ZooKeeperExtension.expireSession(a.client());
				await().atMost(Duration.ofSeconds(10)).until(b::isLeader);
				successorLeads.countDown();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		};

		JobAnswer answer = jobs(b).request("DEFAULT", "report", "run");

		assertThat(successorLeads.await(1, TimeUnit.SECONDS)).isTrue();
		assertThat(answer.status()).isEqualTo(Status.STARTED);
		assertThat(answer.message()).contains("started on b");
		await().atMost(Duration.ofSeconds(5)).until(() -> JobOperationsApp.runs.size() == 1);
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> JobOperationsApp.runs.size() == 1);
		assertThat(JobOperationsApp.runs).extracting(Run::instance).containsExactly("b");
	}

	@Test
	void requestNobodyAnswersIsWithdrawnAfterTheTimeoutAndNeverRuns() {
		Instance a = this.instances.start("a", "zk.quartz.request-timeout=500ms");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		// the leader's firing cannot commit in time: the caller withdraws the request first
		CountDownLatch release = new CountDownLatch(1);
		jobs(a).consumer().beforeRunCommit = () -> {
			try {
				release.await(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		};

		JobAnswer answer = jobs(a).request("DEFAULT", "report", "run");
		release.countDown();

		assertThat(answer.status()).isEqualTo(Status.TIMEOUT);
		assertThat(answer.message()).contains("withdrawn");
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> JobOperationsApp.runs.isEmpty());
	}

	@Test
	void withCredentialsNobodyElseCanPlantARequestAndTheLeaderRunsNothing() throws Exception {
		Instance a = this.instances.start("a", "zk.auth.credentials=app:s3cret", "zk.leader.root=/secured");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		assertThat(jobs(a).request("DEFAULT", "report", "pause").status()).isEqualTo(Status.DONE);
		String requests = a.election().latchPath() + ".jobs/requests";
		try (CuratorFramework stranger = zk.newClient()) {
			assertThatExceptionOfType(KeeperException.NoAuthException.class).isThrownBy(() -> stranger.create()
				.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
				.forPath(requests + "/r-", "run\nDEFAULT\nreport\nstranger".getBytes(StandardCharsets.UTF_8)));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.delete().forPath(a.election().latchPath() + ".jobs/paused/DEFAULT.report"));
		}
		await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(2)).until(() -> JobOperationsApp.runs.isEmpty());
	}

	@Test
	void withoutCredentialsARequestWrittenWithZkCliIsCarriedOutLikeAnyInstancesOnce() throws Exception {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		String requests = a.election().latchPath() + ".jobs/requests";
		try (CuratorFramework stranger = zk.newClient()) {
			stranger.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
				.forPath(requests + "/r-", "run\nDEFAULT\nreport\nzkCli".getBytes(StandardCharsets.UTF_8));
			stranger.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
				.forPath(requests + "/r-", "garbage".getBytes(StandardCharsets.UTF_8));
			await().atMost(Duration.ofSeconds(5)).until(() -> stranger.getChildren().forPath(requests).isEmpty());
		}
		await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(2)).until(() -> JobOperationsApp.runs.size() == 1);
	}

	private static JobOperations jobs(Instance instance) {
		return JobsAccess.operations(instance.context().getBean(ZkJobs.class));
	}

}
