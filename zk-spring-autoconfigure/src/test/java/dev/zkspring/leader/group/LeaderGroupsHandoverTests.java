package dev.zkspring.leader.group;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.LeadershipReason;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.group.GroupedJobsApp.Run;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A leader group's handover on a scheduler the instance shares with its other groups: each fire time
 * of the group's jobs runs once across the gap between the old leader's release and the new leader's
 * grant, and a leader stepping back drains the group's running job before the next one starts.
 */
public class LeaderGroupsHandoverTests {

	private static final long PERIOD = 100;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final AppInstances instances = GroupedJobsApp.instances(zk, "zk.leader.groups.one=alpha",
			"zk.leader.groups.two=beta", "zk.leader.drain-timeout=15s", "test.period-millis=" + PERIOD);

	@Test
	void fireTimesInTheGapOfAGroupsHandoverRunOnceOnTheNewLeader() throws Exception {
		Instance a = this.instances.start("a");
		Instance b = this.instances.start("b");
		await().atMost(Duration.ofSeconds(10)).until(() -> leads(a, "one") && leads(a, "two"));
		await().atMost(Duration.ofSeconds(10)).until(() -> election(b, "one").participants().size() == 2
				&& election(b, "two").participants().size() == 2);
		// b leads group two, so its scheduler runs while it waits for group one
		assertThat(LeaderInternals.stepBack(election(a, "two"))).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> leads(b, "two"));
		CountDownLatch release = new CountDownLatch(1);
		LeaderInternals.inOrder(election(b, "one"), () -> block(release));
		await().atMost(Duration.ofSeconds(5)).until(() -> GroupedJobsApp.runs("alpha", "a").size() >= 3);

		assertThat(LeaderInternals.stepBack(election(a, "one"))).isTrue();
		await().atMost(Duration.ofSeconds(5)).until(() -> !leads(a, "one"));
		long lastOfA = GroupedJobsApp.runs("alpha", "a").stream().mapToLong(Run::fireTime).max().orElseThrow();
		// nobody leads group one until at least five of its fire times have passed
		await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > lastOfA + 6 * PERIOD);
		assertThat(leads(b, "one")).isFalse();
		release.countDown();

		await().atMost(Duration.ofSeconds(10)).until(() -> GroupedJobsApp.runs("alpha", "b").size() >= 10);
		List<Long> fireTimes = new ArrayList<>(GroupedJobsApp.runs("alpha").stream().map(Run::fireTime).sorted().toList());
		assertThat(fireTimes).doesNotHaveDuplicates();
		List<Long> gaps = new ArrayList<>();
		for (int i = 1; i < fireTimes.size(); i++) {
			if (fireTimes.get(i) - fireTimes.get(i - 1) != PERIOD) {
				gaps.add(fireTimes.get(i - 1));
			}
		}
		assertThat(gaps).as("fire times after which the next one of the lattice did not run, a's last was " + lastOfA)
			.isEmpty();
		assertThat(GroupedJobsApp.runs("alpha", "b")).allMatch((run) -> run.fireTime() > lastOfA);
	}

	@Test
	void aFiringDecidedOnlyOnceTheInstanceLeadsTheGroupRunsNoFireTimeTwice() {
		Instance a = this.instances.start("a");
		Instance b = this.instances.start("b");
		await().atMost(Duration.ofSeconds(10)).until(() -> leads(a, "one") && leads(a, "two"));
		await().atMost(Duration.ofSeconds(10)).until(() -> election(b, "one").participants().size() == 2
				&& election(b, "two").participants().size() == 2);
		assertThat(LeaderInternals.stepBack(election(a, "two"))).isTrue();
		await().atMost(Duration.ofSeconds(10)).until(() -> leads(b, "two"));
		// any firing of group one's job on b while b does not lead it is held until b leads it: a trigger of a
		// group this instance does not lead must not fire at all, or such a firing runs a fire time again
		AtomicBoolean armed = new AtomicBoolean(true);
		LeaderInternals.records(election(b, "one")).beforeDecision = () -> {
			if (!leads(b, "one") && armed.getAndSet(false)) {
				await().atMost(Duration.ofSeconds(10)).until(() -> leads(b, "one"));
			}
		};
		int before = GroupedJobsApp.runs("alpha", "a").size();
		await().atMost(Duration.ofSeconds(5)).until(() -> GroupedJobsApp.runs("alpha", "a").size() >= before + 3);

		assertThat(LeaderInternals.stepBack(election(a, "one"))).isTrue();

		await().atMost(Duration.ofSeconds(10)).until(() -> GroupedJobsApp.runs("alpha", "b").size() >= 5);
		assertThat(GroupedJobsApp.runs("alpha").stream().map(Run::fireTime).toList()).doesNotHaveDuplicates();
	}

	@Test
	void aFireTimeVetoedAsTheLeaderStepsBackRunsOnceWhenItLeadsTheGroupAgain() throws Exception {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(() -> leads(a, "one") && GroupedJobsApp.runs("alpha", "a").size() >= 3);
		// a firing reaches the gate while a leads, and is decided only once a stepped back: vetoed there, its
		// trigger has moved past it; a, the only participant, leads the group again at once
		CountDownLatch caught = new CountDownLatch(1);
		AtomicBoolean armed = new AtomicBoolean(true);
		LeaderInternals.records(election(a, "one")).beforeDecision = () -> {
			if (armed.getAndSet(false)) {
				caught.countDown();
				await().atMost(Duration.ofSeconds(10)).until(() -> !leads(a, "one"));
			}
		};
		assertThat(caught.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(LeaderInternals.stepBack(election(a, "one"))).isTrue();
		long steppedBack = System.nanoTime();

		await().atMost(Duration.ofSeconds(10)).until(() -> GroupedJobsApp.runs("alpha", "a").stream()
			.filter((run) -> run.startNanos() > steppedBack).count() >= 5);
		List<Long> fireTimes = GroupedJobsApp.runs("alpha").stream().map(Run::fireTime).sorted().toList();
		assertThat(fireTimes).doesNotHaveDuplicates();
		for (int i = 1; i < fireTimes.size(); i++) {
			assertThat(fireTimes.get(i) - fireTimes.get(i - 1)).as("after fire time " + fireTimes.get(i - 1)).isEqualTo(PERIOD);
		}
	}

	@Test
	void leaderSteppingBackDrainsTheGroupsRunningJobBeforeTheNextLeaderStartsIt() throws Exception {
		Instance a = this.instances.start("a");
		Instance b = this.instances.start("b");
		await().atMost(Duration.ofSeconds(10)).until(() -> leads(a, "one"));
		await().atMost(Duration.ofSeconds(10)).until(() -> election(b, "one").participants().size() == 2);
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch finish = new CountDownLatch(1);
		GroupedJobsApp.holdNextRun.set(new CountDownLatch[] { started, finish });
		assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();

		assertThat(LeaderInternals.stepBack(election(a, "one"))).isTrue();
		// the run a holds keeps group one from moving
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2))
			.until(() -> !leads(b, "one") && GroupedJobsApp.runs("alpha", "b").isEmpty());
		finish.countDown();

		await().atMost(Duration.ofSeconds(10)).until(() -> leads(b, "one") && !GroupedJobsApp.runs("alpha", "b").isEmpty());
		assertThat(leads(a, "one")).isFalse();
		Run held = GroupedJobsApp.runs("alpha", "a").stream().max((x, y) -> Long.compare(x.endNanos(), y.endNanos()))
			.orElseThrow();
		assertThat(GroupedJobsApp.runs("alpha", "b")).allMatch((run) -> run.startNanos() > held.endNanos());
		assertThat(a.revocations()).map(AppInstances.Revocation.class::cast).map(AppInstances.Revocation::reason)
			.contains(LeadershipReason.REBALANCED);
	}

	private static void block(CountDownLatch latch) {
		try {
			latch.await(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	public static ZkLeaderElection election(Instance instance, String group) {
		return instance.context().getBean(ZkLeaderGroups.class).elections().get(group);
	}

	public static boolean leads(Instance instance, String group) {
		return instance.context().isActive() && election(instance, group).isLeader();
	}

}
