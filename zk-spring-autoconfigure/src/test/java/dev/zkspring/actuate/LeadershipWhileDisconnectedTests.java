package dev.zkspring.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** What the endpoint and health show of the leadership while ZooKeeper is away: at once, marked stale. */
class LeadershipWhileDisconnectedTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void describesTheLastKnownGroupAtOnceMarkedStaleWithWhenItWasRead() throws Exception {
		CuratorFramework client = zk.newClient();
		ZkLeaderElection election = new ZkLeaderElection(client, "/leader/described", () -> "node-1",
				Duration.ofSeconds(1), Duration.ZERO);
		election.start();
		try {
			await().atMost(Duration.ofSeconds(5)).until(election::isLeader);
			Map<String, Object> connected = Leadership.describe(election, true);
			assertThat(connected).containsEntry("stale", false)
				.containsEntry("leaderId", "node-1")
				.containsEntry("participants", List.of("node-1"))
				.containsKey("asOf");

			zk.stopServer();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> !client.getZookeeperClient().isConnected() && !election.isLeader());
			long started = System.nanoTime();
			Map<String, Object> away = Leadership.describe(election, true);
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(200));
			assertThat(away).containsEntry("stale", true)
				.containsEntry("leader", false)
				.containsEntry("leaderId", "node-1")
				.containsEntry("participants", List.of("node-1"))
				.containsEntry("asOf", connected.get("asOf"));
		}
		finally {
			election.stop();
		}
	}

}
