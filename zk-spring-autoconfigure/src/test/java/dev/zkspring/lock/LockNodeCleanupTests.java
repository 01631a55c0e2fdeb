package dev.zkspring.lock;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Keys live in container nodes under a persistent root, so keys nobody uses any more leave nothing behind. */
class LockNodeCleanupTests {

	private static final String CHECK_INTERVAL = "znode.container.checkIntervalMs";

	static {
		// the server reads it when it starts: sweep empty containers every 100 ms instead of every minute
		System.setProperty(CHECK_INTERVAL, "100");
	}

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@AfterAll
	static void restoreCheckInterval() {
		System.clearProperty(CHECK_INTERVAL);
	}

	@Test
	void releasedKeysDisappearOnceUnusedWhileTheRootStays() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		jvm.template.execute("tidy", Duration.ofSeconds(1), () -> {
			assertThat(client.getChildren().forPath("/locks/tidy")).hasSize(1);
			return null;
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> client.checkExists().forPath("/locks/tidy") == null);
		// persistent, not a container (ZooKeeper marks those with an ephemeral owner of Long.MIN_VALUE):
		// a root that vanished could be re-created by anyone, with an ACL of their choosing
		assertThat(client.checkExists().forPath("/locks").getEphemeralOwner()).isZero();
	}

	@Test
	void aKeyTriedOnceWhileBusyLeavesNoNodeOfItsOwn() throws Exception {
		LockTestSupport holder = new LockTestSupport(zk.newClient());
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		LockTestSupport.holdWhile(holder, ZkLock.Mode.MUTEX, "held", () -> {
			assertThat(jvm.template.tryExecute("held", Duration.ZERO, () -> "never").isBusy()).isTrue();
			assertThat(client.getChildren().forPath("/locks/held")).hasSize(1);
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> client.checkExists().forPath("/locks/held") == null);
	}

}
