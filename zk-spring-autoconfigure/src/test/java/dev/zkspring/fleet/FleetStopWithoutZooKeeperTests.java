package dev.zkspring.fleet;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Stopping after ZooKeeper has gone (issue 38.4) does not wait for the fleet node's delete: the publisher's
 * thread may be busy with a write that started while connected, and the node goes with the session anyway.
 */
class FleetStopWithoutZooKeeperTests {

	@RegisterExtension
	final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void aStopAfterZooKeeperHasGoneDoesNotWaitBehindAWriteInProgress() throws Exception {
		CuratorFramework client = this.zk.newClient();
		CountDownLatch writing = new CountDownLatch(1);
		CountDownLatch finishWrite = new CountDownLatch(1);
		Publisher publisher = new Publisher(client, () -> {
			// a write that started while connected and is still under way when ZooKeeper goes
			writing.countDown();
			finishWrite.await();
			return new Publisher.Document(new byte[0], true);
		});
		publisher.start(new FleetNode(client, "/fleet/orders", "/fleet/orders/node-1"));
		try {
			assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();
			this.zk.stopServer();
			await().atMost(Duration.ofSeconds(10)).until(() -> !client.getZookeeperClient().isConnected());
			long started = System.nanoTime();
			publisher.stop();
			// was: 5 s, waiting for the delete queued behind the write
			assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
		}
		finally {
			finishWrite.countDown();
		}
	}

}
