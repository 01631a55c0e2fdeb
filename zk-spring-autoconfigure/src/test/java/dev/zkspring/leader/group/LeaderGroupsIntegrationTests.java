package dev.zkspring.leader.group;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.JobBuilder;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances.Revocation;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.ExecutionRecorder;
import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.leader.LeadershipReason;
import dev.zkspring.leader.RecordingJob;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Leader groups ({@code zk.leader.groups}): each group's jobs and {@code @LeaderOnly(group = ...)} calls
 * run on that group's leader, the groups spread over the instances and move, drained, when one joins.
 */
class LeaderGroupsIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	/** One recorder per job, so overlaps are checked per group. */
	static final Map<String, ExecutionRecorder> recorders = new ConcurrentHashMap<>();

	@RegisterExtension
	final AppInstances instances = new AppInstances(zk, GroupedJobsConfiguration.class, "zk.leader.rebalance-hold=1s",
			"zk.leader.drain-timeout=5s", "zk.leader.max-groups=1", "zk.leader.groups.one=alpha", "zk.leader.groups.two=beta");

	static ExecutionRecorder recorder(String job) {
		return recorders.computeIfAbsent(job, (name) -> new ExecutionRecorder());
	}

	@Test
	void twoGroupsOverTwoInstancesEachLeadsOneAndRunsItsGroupsJobs() {
		List<Instance> all = List.of(this.instances.start("a"), this.instances.start("b"));
		await().atMost(Duration.ofSeconds(20)).until(() -> all.stream().allMatch((instance) -> led(instance).size() == 1));
		Instance leaderOfOne = leaderOf(all, "one");
		Instance leaderOfTwo = leaderOf(all, "two");
		assertThat(leaderOfOne).isNotEqualTo(leaderOfTwo);
		long settled = System.nanoTime();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> recorder("alpha").startedAfter(settled).size() >= 3 && recorder("beta").startedAfter(settled).size() >= 3);
		assertThat(recorder("alpha").instancesSince(settled)).containsExactly(leaderOfOne.id());
		assertThat(recorder("beta").instancesSince(settled)).containsExactly(leaderOfTwo.id());
		assertNoOverlapPerGroup();
	}

	@Test
	void threeGroupsWithMaxGroupsOneOverThreeInstancesOneEach() {
		String[] three = { "zk.leader.groups.three=gamma", "zk.leader.max-groups=1" };
		List<Instance> all = List.of(this.instances.start("a", three), this.instances.start("b", three),
				this.instances.start("c", three));
		await().atMost(Duration.ofSeconds(30)).until(() -> all.stream().allMatch((instance) -> led(instance).size() == 1));
		assertThat(all.stream().flatMap((instance) -> led(instance).stream()).sorted().toList())
			.containsExactly("one", "three", "two");
		assertNoOverlapPerGroup();
	}

	@Test
	void joiningInstanceTakesAGroupAfterTheLeaderDrainedItsRunningJob() {
		String[] slow = { "test.work-millis=300" };
		Instance a = this.instances.start("a", slow);
		await().atMost(Duration.ofSeconds(10)).until(() -> led(a).size() == 2);
		Map<String, Long> epochsOfA = Map.of("one", epoch(a, "one"), "two", epoch(a, "two"));
		long joined = System.nanoTime();
		Instance b = this.instances.start("b", slow);
		await().atMost(Duration.ofSeconds(20)).until(() -> led(a).size() == 1 && led(b).size() == 1);
		String moved = led(b).get(0);
		String job = moved.equals("one") ? "alpha" : "beta";
		await().atMost(Duration.ofSeconds(10)).until(() -> !recorder(job).by("b", joined).isEmpty());
		assertThat(a.revocations()).map(Revocation.class::cast).map(Revocation::reason).contains(LeadershipReason.REBALANCED);
		// the group's epoch goes on increasing with the new leader
		assertThat(epoch(b, moved)).isGreaterThan(epochsOfA.get(moved));
		assertThat(recorder(job).by("b", joined)).allMatch((execution) -> execution.epoch() == epoch(b, moved));
		assertNoOverlapPerGroup();
	}

	@Test
	void expiredLeaderOfOneGroupMovesOnlyThatGroup() throws Exception {
		// an instance hands nothing over within the hold of taking a group: the other groups stay put meanwhile;
		// the takeover delay lets the expired leader's running job end, as for the single election
		String[] three = { "zk.leader.groups.three=gamma", "zk.leader.max-groups=1", "zk.leader.rebalance-hold=3s",
				"zk.leader.takeover-delay=1s" };
		List<Instance> all = List.of(this.instances.start("a", three), this.instances.start("b", three),
				this.instances.start("c", three));
		await().atMost(Duration.ofSeconds(40)).until(() -> all.stream().allMatch((instance) -> led(instance).size() == 1));
		Instance victim = leaderOf(all, "one");
		Map<String, String> before = leaders(all);
		ZooKeeperExtension.expireSession(victim.client());
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			Instance now = leaderOf(all, "one");
			return now != null && now != victim;
		});
		Map<String, String> after = leaders(all);
		before.forEach((group, id) -> {
			if (!id.equals(victim.id())) {
				assertThat(after).as("leader of group " + group).containsEntry(group, id);
			}
		});
		assertNoOverlapPerGroup();
	}

	@Test
	void leaderOnlyCallsOfAGroupRunOnThatGroupsLeader() {
		List<Instance> all = List.of(this.instances.start("a"), this.instances.start("b"));
		await().atMost(Duration.ofSeconds(20)).until(() -> all.stream().allMatch((instance) -> led(instance).size() == 1));
		for (Instance instance : all) {
			GroupReport report = instance.context().getBean(GroupReport.class);
			boolean leadsOne = led(instance).contains("one");
			assertThat(report.one()).isEqualTo(leadsOne ? Optional.of(instance.id()) : Optional.empty());
			assertThat(report.two()).isEqualTo(leadsOne ? Optional.empty() : Optional.of(instance.id()));
		}
	}

	private static List<String> led(Instance instance) {
		if (!instance.context().isActive()) {
			return List.of();
		}
		return instance.context().getBean(ZkLeaderGroups.class).elections().entrySet().stream()
			.filter((entry) -> entry.getValue().isLeader())
			.map(Map.Entry::getKey)
			.sorted()
			.toList();
	}

	private static long epoch(Instance instance, String group) {
		return instance.context().getBean(ZkLeaderGroups.class).elections().get(group).epoch();
	}

	private static Instance leaderOf(List<Instance> all, String group) {
		return all.stream().filter((instance) -> led(instance).contains(group)).findFirst().orElse(null);
	}

	private static Map<String, String> leaders(List<Instance> all) {
		return all.stream()
			.flatMap((instance) -> led(instance).stream().map((group) -> Map.entry(group, instance.id())))
			.collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
	}

	@BeforeEach
	void newRecorders() {
		recorders.clear();
	}

	private static void assertNoOverlapPerGroup() {
		recorders.forEach((job, recorder) -> {
			try {
				recorder.assertNoOverlap();
			}
			catch (AssertionError ex) {
				throw new AssertionError("Job " + job + ": " + ex.getMessage() + " in " + recorder.all(), ex);
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZkAutoConfiguration.class, QuartzAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
			ZkQuartzAutoConfiguration.class })
	static class GroupedJobsConfiguration {

		@Bean
		JobDetail alpha(Environment environment) {
			return job("alpha", environment);
		}

		@Bean
		JobDetail beta(Environment environment) {
			return job("beta", environment);
		}

		@Bean
		JobDetail gamma(Environment environment) {
			return job("gamma", environment);
		}

		@Bean
		Trigger alphaTrigger(JobDetail alpha) {
			return trigger(alpha);
		}

		@Bean
		Trigger betaTrigger(JobDetail beta) {
			return trigger(beta);
		}

		@Bean
		Trigger gammaTrigger(JobDetail gamma) {
			return trigger(gamma);
		}

		@Bean
		GroupReport groupReport(@Value("${zk.leader.id}") String id) {
			return new GroupReport(id);
		}

		static JobDetail job(String name, Environment environment) {
			JobDataMap data = new JobDataMap();
			data.put(RecordingJob.RECORDER, recorder(name));
			data.put(RecordingJob.INSTANCE, environment.getRequiredProperty("zk.leader.id"));
			data.put(RecordingJob.WORK_MILLIS, environment.getProperty("test.work-millis", Long.class, 40L));
			return JobBuilder.newJob(RecordingJob.class).withIdentity(name).usingJobData(data).storeDurably().build();
		}

		static Trigger trigger(JobDetail job) {
			return TriggerBuilder.newTrigger()
				.forJob(job)
				.withIdentity(job.getKey().getName())
				.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(100).repeatForever())
				.build();
		}

	}

	static class GroupReport {

		private final String id;

		GroupReport(String id) {
			this.id = id;
		}

		@LeaderOnly(group = "one")
		public Optional<String> one() {
			return Optional.of(this.id);
		}

		@LeaderOnly(group = "two")
		public Optional<String> two() {
			return Optional.of(this.id);
		}

	}

}
