package dev.zkspring.test;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The ensemble half of the test support works, since every failover test of later features relies on it. */
class ZooKeeperExtensionEnsembleTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.ensemble();

	@Test
	void clientKeepsWorkingAfterTheEnsembleLosesItsLeader() throws Exception {
		CuratorFramework client = zk.newClient();
		client.create().forPath("/before", new byte[] { 1 });
		InstanceSpec killed = zk.killLeader();
		await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> !zk.leader().equals(killed));
		client.create().forPath("/after", new byte[] { 2 });
		assertThat(client.getData().forPath("/before")).containsExactly(1);
		zk.restart(killed);
	}

	@Test
	void sessionExpiryIsObservedByTheClient() throws Exception {
		CuratorFramework client = zk.newClient();
		long before = client.getZookeeperClient().getZooKeeper().getSessionId();
		ZooKeeperExtension.expireSession(client);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> client.getZookeeperClient().isConnected()
					&& client.getZookeeperClient().getZooKeeper().getSessionId() != before);
	}

}
