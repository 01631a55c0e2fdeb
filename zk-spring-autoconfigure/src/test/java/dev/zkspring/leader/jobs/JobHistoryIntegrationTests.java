package dev.zkspring.leader.jobs;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.jobs.JobsAccess;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each job's last runs, written to ZooKeeper by the instance that ran them: across a failover the
 * history shows both instances (read on either), it stays bounded, and a failure names its class only.
 */
class JobHistoryIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final AppInstances instances = JobOperationsApp.instances(zk, "zk.leader.drain-timeout=1s",
			"zk.session-timeout=6s", "zk.connection-timeout=3s", "zk.quartz.jobs.report.interval=150ms",
			"zk.quartz.history-size=20");

	@AfterEach
	void succeed() {
		JobOperationsApp.fail = false;
	}

	@Test
	void historyShowsRunsOfTwoInstancesAcrossAFailoverAndStaysBounded() throws Exception {
		Instance a = this.instances.start("a");
		Instance b = this.instances.start("b");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		await().atMost(Duration.ofSeconds(5)).until(() -> JobOperationsApp.count("a") >= 3 && lastRuns(b).size() >= 3);

		ZooKeeperExtension.expireSession(a.client());

		await().atMost(Duration.ofSeconds(10)).until(b::isLeader);
		await().atMost(Duration.ofSeconds(5)).until(() -> instancesIn(lastRuns(a)).containsAll(List.of("a", "b")));
		List<Map<String, Object>> runs = lastRuns(a);
		assertThat(runs).allSatisfy((run) -> assertThat(run).containsKeys("instance", "fireTime", "start", "end")
			.containsEntry("outcome", "SUCCEEDED"));
		// newest first: the successor's runs come before its predecessor's
		assertThat(runs.get(0)).containsEntry("instance", "b");
		await().atMost(Duration.ofSeconds(10)).until(() -> JobOperationsApp.count("b") >= 30);
		assertThat(lastRuns(b)).hasSizeLessThanOrEqualTo(20);
		String history = b.election().latchPath() + ".jobs/history/DEFAULT.report";
		assertThat(zk.newClient().getChildren().forPath(history)).hasSizeLessThanOrEqualTo(21);
		// a run written and not trimmed yet (the moment between a write and its trim, held open): still 20 shown
		a.election().stop();
		b.election().stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !b.isLeader() && !a.isLeader());
		CuratorFramework writer = zk.newClient();
		int present = writer.getChildren().forPath(history).size();
		for (int i = present; i <= 20; i++) {
			writer.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(history + "/run-",
					"planted\n1\n1\n1\nSUCCEEDED\n".getBytes(StandardCharsets.UTF_8));
		}
		assertThat(lastRuns(b)).hasSize(20);
		// and no trim came in between: the read saw all 21
		assertThat(writer.getChildren().forPath(history)).hasSize(21);
	}

	@Test
	void aFailedRunIsRecordedWithItsErrorClassButNeverItsMessage() {
		JobOperationsApp.fail = true;
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		await().atMost(Duration.ofSeconds(5)).until(() -> !lastRuns(a).isEmpty());
		Map<String, Object> run = lastRuns(a).get(0);
		assertThat(run).containsEntry("outcome", "FAILED").containsEntry("error", IllegalStateException.class.getName());
		assertThat(jobs(a).describe().toString()).doesNotContain("secret-value");
	}

	@Test
	void runsThatEndJustBeforeTheStopAreStillRecorded() throws Exception {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
		await().atMost(Duration.ofSeconds(5)).until(() -> JobOperationsApp.count("a") >= 1);
		// a slow write ahead of the last runs' records, still under way when the stop begins
		CountDownLatch never = new CountDownLatch(1);
		jobs(a).writer().execute(() -> {
			try {
				never.await(1500, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		long queued = JobOperationsApp.count("a");
		await().atMost(Duration.ofSeconds(1)).until(() -> JobOperationsApp.count("a") > queued);
		String history = a.election().latchPath() + ".jobs/history/DEFAULT.report";
		a.context().close();
		// was: the stop interrupted the writer, dropping the records queued behind the slow write
		assertThat(zk.newClient().getChildren().forPath(history))
			.hasSize((int) Math.min(JobOperationsApp.count("a"), 20));
	}

	private static List<Map<String, Object>> lastRuns(Instance instance) {
		@SuppressWarnings("unchecked")
		List<Map<String, Object>> runs = (List<Map<String, Object>>) jobs(instance).describe().get(0).get("lastRuns");
		return runs;
	}

	private static List<Object> instancesIn(List<Map<String, Object>> runs) {
		return runs.stream().map((run) -> run.get("instance")).distinct().toList();
	}

	private static JobOperations jobs(Instance instance) {
		return JobsAccess.operations(instance.context().getBean(ZkJobs.class));
	}

}
