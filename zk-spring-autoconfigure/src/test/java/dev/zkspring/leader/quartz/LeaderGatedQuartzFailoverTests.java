package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.ExecutionRecorder;
import dev.zkspring.leader.RecordingJobConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Leader-gated Quartz on a 3-node ensemble that loses its own leader. */
class LeaderGatedQuartzFailoverTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.ensemble();

	@RegisterExtension
	static final ExecutionRecorder recorder = new ExecutionRecorder();

	@RegisterExtension
	final AppInstances instances = new AppInstances(zk, RecordingJobConfiguration.GatedApp.class, "zk.session-timeout=15s",
			"zk.connection-timeout=5s", "zk.leader.takeover-delay=1s", "zk.leader.drain-timeout=2s").withBeans(recorder);

	@Test
	void ensembleLosingItsLeaderNeverLetsTwoInstancesFireAtOnce() throws Exception {
		List<Instance> all = this.instances.startAll("a", "b", "c");
		await().atMost(Duration.ofSeconds(15)).until(() -> all.stream().filter(Instance::isLeader).count() == 1);
		long since = System.nanoTime();
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.startedAfter(since).size() >= 3);
		zk.killLeader();
		long killed = System.nanoTime();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> all.stream().filter(Instance::isLeader).count() == 1
					&& recorder.startedAfter(killed).size() >= 3);
		Instance leader = all.stream().filter(Instance::isLeader).findFirst().orElseThrow();
		long settled = System.nanoTime();
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.startedAfter(settled).size() >= 3);
		assertThat(recorder.instancesSince(settled)).containsExactly(leader.id());
		recorder.assertNoOverlap();
	}

}
