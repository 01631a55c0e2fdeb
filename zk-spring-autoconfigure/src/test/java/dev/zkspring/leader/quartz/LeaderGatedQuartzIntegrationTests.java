package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.Scheduler;

import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.ExecutionRecorder.Execution;
import dev.zkspring.leader.ExecutionRecorder;
import dev.zkspring.leader.LeadershipReason;
import dev.zkspring.leader.RecordingJobConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Spring Boot's auto-configured Quartz scheduler, gated by leadership, on three simulated instances.
 * The recorder asserts after the class that no two executions ever overlapped.
 */
class LeaderGatedQuartzIntegrationTests {

	private static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(2);

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	static final ExecutionRecorder recorder = new ExecutionRecorder();

	@RegisterExtension
	final AppInstances instances = new AppInstances(zk, RecordingJobConfiguration.GatedApp.class,
			"zk.leader.takeover-delay=1s", "zk.leader.drain-timeout=" + DRAIN_TIMEOUT.toMillis() + "ms", "zk.session-timeout=6s",
			"zk.connection-timeout=3s").withBeans(recorder);

	@Test
	void threeInstancesRunTheJobOnTheLeaderOnlyWithItsEpoch() throws Exception {
		long since = System.nanoTime();
		List<Instance> all = this.instances.startAll("a", "b", "c");
		Instance leader = awaitOneLeader(all);
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.startedAfter(since).size() >= 5);
		assertThat(recorder.instancesSince(since)).containsExactly(leader.id());
		assertThat(recorder.startedAfter(since)).extracting(Execution::epoch)
			.containsOnly(leader.election().epoch())
			.doesNotContain(0L);
		for (Instance follower : followers(all, leader)) {
			assertThat(follower.context().getBean(Scheduler.class).isStarted()).isFalse();
		}
		assertThat(leader.election().participants()).containsExactlyInAnyOrder("a", "b", "c");
		assertThat(leader.election().participants().get(0)).isEqualTo(leader.id());
		assertThat(all).allSatisfy((instance) -> assertThat(instance.election().leaderId()).contains(leader.id()));
		recorder.assertNoOverlap();
	}

	@Test
	void gracefulStopOfTheLeaderHandsOverWithinDrainTimePlusOneSecond() {
		long since = System.nanoTime();
		List<Instance> all = this.instances.startAll("a", "b", "c");
		Instance leader = awaitOneLeader(all);
		long epoch = leader.election().epoch();
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.by(leader.id(), since).size() >= 3);
		long stopRequested = System.nanoTime();
		leader.context().close();
		await().atMost(Duration.ofSeconds(5)).until(() -> leader.revokedAfter(stopRequested) > 0);
		long revoked = leader.revokedAfter(stopRequested);
		await().atMost(DRAIN_TIMEOUT.plusSeconds(5)).until(() -> recorder.startedAfter(stopRequested)
			.stream()
			.anyMatch((execution) -> !execution.instance().equals(leader.id())));
		// a firing between the stop request and the standby still belongs to the leader; none may come after
		assertThat(recorder.startedAfter(revoked)).extracting(Execution::instance).doesNotContain(leader.id());
		Execution first = recorder.startedAfter(stopRequested)
			.stream()
			.filter((execution) -> !execution.instance().equals(leader.id()))
			.findFirst()
			.orElseThrow();
		assertThat(Duration.ofNanos(first.startNanos() - stopRequested)).isLessThan(DRAIN_TIMEOUT.plusSeconds(1));
		assertThat(first.epoch()).isGreaterThan(epoch);
		recorder.assertNoOverlap();
	}

	@Test
	void leaderWhoseSessionExpiresStopsFiringAtOnceAndAnotherTakesOverAfterItsRunningJob() throws Exception {
		// jobs run back to back, so the session expires while one runs
		long since = System.nanoTime();
		List<Instance> all = List.of("a", "b", "c")
			.stream()
			.map((id) -> this.instances.start(id, "test.work-millis=300"))
			.toList();
		Instance leader = awaitOneLeader(all);
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.by(leader.id(), since).size() >= 3);
		long expired = System.nanoTime();
		ZooKeeperExtension.expireSession(leader.client());
		await().atMost(Duration.ofSeconds(2)).until(() -> leader.revokedAfter(expired) > 0);
		long revoked = leader.revokedAfter(expired);
		assertThat(leader.election().isLeader()).isFalse();
		// the server closes the expired session's connection, so the client usually hears SUSPENDED first;
		// LOST or the watch on its own latch node may come first instead
		assertThat(leader.revocations()).anySatisfy((revocation) -> assertThat(revocation)
			.isIn(new AppInstances.Revocation(revoked, LeadershipReason.CONNECTION_SUSPENDED),
					new AppInstances.Revocation(revoked, LeadershipReason.SESSION_LOST),
					new AppInstances.Revocation(revoked, LeadershipReason.NODE_LOST)));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> recorder.instancesSince(revoked).stream().anyMatch((id) -> !id.equals(leader.id())));
		assertThat(recorder.startedAfter(revoked)).extracting(Execution::instance).doesNotContain(leader.id());
		await().atMost(Duration.ofSeconds(5)).until(() -> leader.election().participants().size() == 3);
		recorder.assertNoOverlap();
	}

	@Test
	void leaderWithASuspendedConnectionStopsFiringAtOnceAndOneLeaderRemainsAfterReconnect() throws Exception {
		long since = System.nanoTime();
		List<Instance> all = this.instances.startAll("a", "b", "c");
		Instance leader = awaitOneLeader(all);
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.by(leader.id(), since).size() >= 3);
		long stopped = System.nanoTime();
		zk.stopServer();
		await().atMost(Duration.ofSeconds(5)).until(() -> leader.revokedAfter(stopped) > 0);
		long revoked = leader.revokedAfter(stopped);
		assertThat(all).noneMatch(Instance::isLeader);
		long restarted = System.nanoTime();
		zk.restartServer();
		Instance after = awaitOneLeader(all);
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.startedAfter(restarted).size() >= 3);
		assertThat(recorder.startedAfter(revoked)).allMatch((execution) -> execution.startNanos() > restarted);
		assertThat(recorder.instancesSince(restarted)).containsExactly(after.id());
		recorder.assertNoOverlap();
	}

	private static Instance awaitOneLeader(List<Instance> all) {
		await().atMost(Duration.ofSeconds(15))
			.until(() -> all.stream().filter(Instance::isLeader).count() == 1);
		return all.stream().filter(Instance::isLeader).findFirst().orElseThrow();
	}

	private static List<Instance> followers(List<Instance> all, Instance leader) {
		return all.stream().filter((instance) -> instance != leader).toList();
	}

}
