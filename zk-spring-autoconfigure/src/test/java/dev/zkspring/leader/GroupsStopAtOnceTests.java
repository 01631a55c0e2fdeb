package dev.zkspring.leader;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A shutdown stops every leader group's election at once: each steps back and drains its running work
 * together with the others, so the shutdown waits one drain timeout at most, whatever the number of groups
 * and of cores. More groups than the machine has cores, each with a {@code @LeaderOnly} call still running.
 */
class GroupsStopAtOnceTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void everyGroupStepsBackAtOnceWhileTheOthersStillDrain() throws Exception {
		int groups = Runtime.getRuntime().availableProcessors() + 2;
		CuratorFramework client = zk.newClient();
		Map<String, ZkLeaderElection> elections = new LinkedHashMap<>();
		for (int i = 0; i < groups; i++) {
			// a drain timeout far beyond the test's waits: a group whose stop has not begun keeps leading
			elections.put("g" + i, new ZkLeaderElection(client, "/leader/stop-at-once/g" + i, () -> "a",
					Duration.ofSeconds(60), Duration.ZERO));
		}
		ZkLeaderGroups leaderGroups = new ZkLeaderGroups(elections, Map.of(), groups, Duration.ZERO);
		ExecutorService stopper = Executors.newSingleThreadExecutor();
		try {
			leaderGroups.start();
			await().atMost(Duration.ofSeconds(20)).until(() -> elections.values().stream().allMatch(ZkLeaderElection::isLeader));
			for (ZkLeaderElection election : elections.values()) {
				assertThat(election.callStarting()).isTrue();
			}
			CompletableFuture<Void> stopped = CompletableFuture.runAsync(leaderGroups::stop, stopper);
			// each stop steps back first, then waits for its call: all at once, none waiting for another's drain
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(elections.entrySet().stream()
					.filter((group) -> group.getValue().isLeader())
					.map(Map.Entry::getKey)
					.toList()).as("groups still leading").isEmpty());
			assertThat(stopped).isNotDone();
			List<ZkLeaderElection> all = List.copyOf(elections.values());
			all.forEach(ZkLeaderElection::callEnded);
			stopped.get(20, TimeUnit.SECONDS);
			assertThat(leaderGroups.isRunning()).isFalse();
		}
		finally {
			stopper.shutdownNow();
			client.close();
		}
	}

}
