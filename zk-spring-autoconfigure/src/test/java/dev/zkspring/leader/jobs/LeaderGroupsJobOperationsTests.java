package dev.zkspring.leader.jobs;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.jobs.JobsAccess;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.JobAnswer.Status;
import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.group.GroupedJobsApp.Run;
import dev.zkspring.leader.group.GroupedJobsApp;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.leader.group.LeaderGroupsHandoverTests.election;
import static dev.zkspring.leader.group.LeaderGroupsHandoverTests.leads;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Run, pause and resume of a job in a leader group, asked on any of three instances, are carried out by
 * that group's leader, not the application's; history and the endpoint's jobs section follow the group.
 */
class LeaderGroupsJobOperationsTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final AppInstances instances = GroupedJobsApp.instances(zk, "zk.leader.groups.one=alpha",
			"zk.leader.groups.two=beta", "zk.leader.drain-timeout=2s", "zk.quartz.request-timeout=5s");

	/** a leads the application's election and group two, b leads group one, c leads nothing. */
	private List<Instance> threeWithGroupOneOnB(String... properties) {
		Instance a = this.instances.start("a", properties);
		await().atMost(Duration.ofSeconds(10)).until(() -> a.isLeader() && leads(a, "one") && leads(a, "two"));
		Instance b = this.instances.start("b", properties);
		Instance c = this.instances.start("c", properties);
		await().atMost(Duration.ofSeconds(10)).until(() -> election(c, "one").participants().size() == 3);
		assertThat(LeaderInternals.stepBack(election(a, "one"))).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> leads(b, "one"));
		return List.of(a, b, c);
	}

	@Test
	void runNowOfAGroupedJobAskedOnAnyInstanceRunsOnceOnThatGroupsLeader() {
		List<Instance> all = threeWithGroupOneOnB();

		JobAnswer answer = jobs(all.get(2)).request("DEFAULT", "alpha", "run");

		assertThat(answer.status()).isEqualTo(Status.STARTED);
		assertThat(answer.message()).contains("started on b");
		await().atMost(Duration.ofSeconds(5)).until(() -> GroupedJobsApp.runs("alpha").size() == 1);
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> GroupedJobsApp.runs.size() == 1);
		assertThat(GroupedJobsApp.runs("alpha")).extracting(Run::instance).containsExactly("b");
		assertThat(GroupedJobsApp.runs("alpha")).extracting(Run::triggerGroup).containsExactly(RequestConsumer.RUN_GROUP);

		assertThat(jobs(all.get(1)).request("DEFAULT", "beta", "run").message()).contains("started on a");
		await().atMost(Duration.ofSeconds(5)).until(() -> GroupedJobsApp.runs("beta", "a").size() == 1);

		// every instance lists each job with its group's leader and the instance that ran it
		Map<String, Object> alpha = view(all.get(2), "alpha");
		assertThat(alpha).containsEntry("leaderGroup", "one").containsEntry("leader", "b");
		await().atMost(Duration.ofSeconds(5)).until(() -> !runs(view(all.get(0), "alpha")).isEmpty());
		assertThat(runs(view(all.get(0), "alpha"))).extracting((run) -> run.get("instance")).containsExactly("b");
		assertThat(view(all.get(2), "beta")).containsEntry("leaderGroup", "two").containsEntry("leader", "a");
	}

	@Test
	void runNowOfAGroupedJobLeavesNoFireTimeRecordBehind() throws Exception {
		List<Instance> all = threeWithGroupOneOnB();
		Instance b = all.get(1);

		assertThat(jobs(all.get(2)).request("DEFAULT", "alpha", "run").status()).isEqualTo(Status.STARTED);
		await().atMost(Duration.ofSeconds(5)).until(() -> GroupedJobsApp.runs("alpha", "b").size() == 1);

		List<String> roots = List.of(b.election().latchPath() + ".fire-times",
				election(b, "one").latchPath() + ".fire-times");
		await().atMost(Duration.ofSeconds(5)).until(() -> runNowRecords(b, roots).isEmpty());
	}

	private static List<String> runNowRecords(Instance instance, List<String> roots) throws Exception {
		List<String> records = new java.util.ArrayList<>();
		for (String root : roots) {
			if (instance.client().checkExists().forPath(root) != null) {
				instance.client().getChildren().forPath(root).stream()
					.filter((child) -> child.startsWith(RequestConsumer.RUN_GROUP))
					.forEach((child) -> records.add(root + "/" + child));
			}
		}
		return records;
	}

	@Test
	void pauseOfAGroupedJobHoldsAcrossThatGroupsHandoverAndHistoryShowsBothLeaders() {
		List<Instance> all = threeWithGroupOneOnB("zk.quartz.jobs.alpha.interval=200ms");
		Instance b = all.get(1);
		Instance c = all.get(2);
		await().atMost(Duration.ofSeconds(5)).until(() -> GroupedJobsApp.runs("alpha", "b").size() >= 2);

		assertThat(jobs(c).request("DEFAULT", "alpha", "pause").status()).isEqualTo(Status.DONE);
		int paused = GroupedJobsApp.runs("alpha").size();
		await().during(Duration.ofMillis(800)).atMost(Duration.ofSeconds(2))
			.until(() -> GroupedJobsApp.runs("alpha").size() <= paused + 1);
		assertThat(view(all.get(0), "alpha")).containsEntry("paused", true);

		assertThat(LeaderInternals.stepBack(election(b, "one"))).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> leads(c, "one"));
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2))
			.until(() -> GroupedJobsApp.runs("alpha", "c").isEmpty());

		assertThat(jobs(all.get(0)).request("DEFAULT", "alpha", "resume").status()).isEqualTo(Status.DONE);
		await().atMost(Duration.ofSeconds(5)).until(() -> GroupedJobsApp.runs("alpha", "c").size() >= 2);
		assertThat(GroupedJobsApp.runs("alpha")).extracting(Run::instance).contains("b", "c");
		await().atMost(Duration.ofSeconds(5)).until(() -> runs(view(all.get(0), "alpha")).stream()
			.map((run) -> run.get("instance")).distinct().count() == 2);
	}

	@Test
	void requestForAGroupWithoutLeaderIsAnsweredNoLeaderAndNothingRuns() {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(() -> a.isLeader() && leads(a, "one"));
		election(a, "one").stop();

		JobAnswer answer = jobs(a).request("DEFAULT", "alpha", "run");

		assertThat(answer.status()).isEqualTo(Status.NO_LEADER);
		assertThat(answer.message()).contains(".groups/one").contains("leader group one").contains("DEFAULT.alpha");
		assertThat(jobs(a).request("DEFAULT", "beta", "run").status()).isEqualTo(Status.STARTED);
		await().during(Duration.ofMillis(600)).atMost(Duration.ofSeconds(2))
			.until(() -> GroupedJobsApp.runs("alpha").isEmpty() && GroupedJobsApp.runs("beta").size() == 1);
	}

	private static JobOperations jobs(Instance instance) {
		return JobsAccess.operations(instance.context().getBean(ZkJobs.class));
	}

	private static Map<String, Object> view(Instance instance, String job) {
		return jobs(instance).describe().stream().filter((view) -> job.equals(view.get("name"))).findFirst().orElseThrow();
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> runs(Map<String, Object> view) {
		return (List<Map<String, Object>>) view.get("lastRuns");
	}

}
