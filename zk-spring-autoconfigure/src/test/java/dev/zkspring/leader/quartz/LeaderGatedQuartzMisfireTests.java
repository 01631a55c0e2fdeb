package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.ExecutionRecorder.Execution;
import dev.zkspring.leader.ExecutionRecorder;
import dev.zkspring.leader.RecordingJobConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a new leader does with the firings its triggers missed while it was in standby, as the README
 * states it: those its predecessor started are not replayed (the successor resumes after the last
 * recorded fire time), whatever the misfire threshold.
 */
class LeaderGatedQuartzMisfireTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	static final ExecutionRecorder recorder = new ExecutionRecorder();

	@RegisterExtension
	final AppInstances instances = new AppInstances(zk, RecordingJobConfiguration.GatedApp.class, "test.interval-millis=200",
			"test.work-millis=5").withBeans(recorder);

	@Test
	void firingsThePredecessorStartedAreNotReplayedWithinTheMisfireThreshold() {
		List<Execution> takeover = handOverAfterStandby();
		// 8 firings came due during the standby, all started by a: b keeps the 200 ms schedule from there
		assertThat(takeover).hasSizeBetween(1, 3);
	}

	@Test
	void firingsMissedBeyondTheMisfireThresholdAreSkippedByARepeatingSimpleTrigger() {
		List<Execution> takeover = handOverAfterStandby(
				"spring.quartz.properties.org.quartz.jobStore.misfireThreshold=100");
		assertThat(takeover).hasSizeBetween(1, 3);
	}

	/** The new leader's executions in the first 500 ms after its first one. */
	private List<Execution> handOverAfterStandby(String... properties) {
		long since = System.nanoTime();
		Instance first = this.instances.start("a", properties);
		await().atMost(Duration.ofSeconds(5)).until(first::isLeader);
		Instance second = this.instances.start("b", properties);
		long standbyFrom = System.nanoTime();
		// b stays in standby while a fires 8 times, so 8 of b's firings come due
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.by("a", standbyFrom).size() >= 8);
		assertThat(second.isLeader()).isFalse();
		first.context().close();
		await().atMost(Duration.ofSeconds(5)).until(() -> !recorder.by("b", since).isEmpty());
		long firstStart = recorder.by("b", since).get(0).startNanos();
		await().atMost(Duration.ofSeconds(3))
			.until(() -> recorder.by("b", since)
				.stream()
				.anyMatch((execution) -> execution.startNanos() - firstStart >= Duration.ofMillis(500).toNanos()));
		recorder.assertNoOverlap();
		return recorder.by("b", since)
			.stream()
			.filter((execution) -> execution.startNanos() - firstStart < Duration.ofMillis(500).toNanos())
			.toList();
	}

}
