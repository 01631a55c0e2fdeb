package dev.zkspring.leader.group;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.group.GroupedJobsApp.Run;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A rolling deploy that moves a job to another leader group: while old and new instances run side by
 * side, each gates the job by a different group's election, and each of its fire times still runs once.
 */
class LeaderGroupsRollingChangeTests {

	private static final long PERIOD = 200;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final AppInstances instances = GroupedJobsApp.instances(zk, "zk.leader.drain-timeout=5s",
			"test.period-millis=" + PERIOD);

	@Test
	void aJobMovedToAnotherGroupRunsEachFireTimeOnceWhileOldAndNewInstancesLeadDifferentGroups() {
		// the old grouping: alpha in group one; the new one moves it to group two
		Instance old = this.instances.start("old", "zk.leader.groups.one=alpha", "zk.leader.groups.two=beta");
		await().atMost(Duration.ofSeconds(10)).until(() -> leads(old, "one") && leads(old, "two"));
		Instance upgraded = this.instances.start("new", "zk.leader.groups.two=alpha,beta");
		await().atMost(Duration.ofSeconds(10)).until(() -> election(upgraded, "two").participants().size() == 2);
		assertThat(LeaderInternals.stepBack(election(old, "two"))).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> leads(upgraded, "two"));
		// old gates alpha by group one, which it leads; new gates it by group two, which it leads
		assertThat(leads(old, "one")).isTrue();
		long settled = System.currentTimeMillis();

		await().atMost(Duration.ofSeconds(15)).until(() -> fireTimesAfter(settled).size() >= 15);
		List<Run> runs = GroupedJobsApp.runs("alpha").stream().filter((run) -> run.fireTime() > settled).toList();
		Map<Long, Long> runsPerFireTime = runs.stream()
			.collect(Collectors.groupingBy(Run::fireTime, Collectors.counting()));
		assertThat(runsPerFireTime).as("runs of alpha per fire time").allSatisfy((fireTime, count) -> assertThat(count)
			.as("runs of fire time " + fireTime + " (on " + runs.stream().filter((run) -> run.fireTime() == fireTime)
				.map(Run::instance).toList() + ")").isEqualTo(1));
		List<Long> fireTimes = fireTimesAfter(settled);
		List<Long> gaps = new ArrayList<>();
		for (int i = 1; i < fireTimes.size(); i++) {
			if (fireTimes.get(i) - fireTimes.get(i - 1) != PERIOD) {
				gaps.add(fireTimes.get(i - 1));
			}
		}
		assertThat(gaps).as("fire times after which the next one of the lattice ran nowhere").isEmpty();
	}

	private static List<Long> fireTimesAfter(long millis) {
		return GroupedJobsApp.runs("alpha").stream().map(Run::fireTime).filter((fireTime) -> fireTime > millis)
			.distinct().sorted().toList();
	}

	private static boolean leads(Instance instance, String group) {
		return election(instance, group).isLeader();
	}

	private static ZkLeaderElection election(Instance instance, String group) {
		return instance.context().getBean(ZkLeaderGroups.class).elections().get(group);
	}

}
