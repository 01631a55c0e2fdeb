package dev.zkspring.leader.shard;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.leader.shard.ShardedJobsApp.Instance;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A read of the shard watch that fails (here of a node under the shards' root that became unreadable to this
 * instance; in the field, ZooKeeper out of reach at a stop) is one WARN line naming the root, not Curator's ERROR with a
 * trace: the scan every second reads the nodes again, so nothing is lost.
 */
@ExtendWith(OutputCaptureExtension.class)
class ShardWatchFailureTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final ShardedJobsApp.Instances instances = new ShardedJobsApp.Instances(zk, "test.period-millis=3600000");

	@Test
	void aFailedReadOfTheShardWatchIsOneWarnLineNamingTheRoot(CapturedOutput output) throws Exception {
		Instance a = this.instances.start("a", "zk.quartz.jobs.report.shards=2");
		await().atMost(Duration.ofSeconds(10)).until(() -> a.shards().isMember());
		String root = a.election().latchPath() + ".shards";
		try (CuratorFramework other = zk.newClient()) {
			// hold the instance's event thread, so that its watch's event for the new node is handled only once
			// the node has become unreadable to it: its read of the node then fails (NoAuth), as reads fail in
			// the field when ZooKeeper goes out of reach
			CountDownLatch holding = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			other.create().forPath("/hold", new byte[0]);
			a.client().getData().usingWatcher((CuratorWatcher) (event) -> {
				holding.countDown();
				release.await(10, TimeUnit.SECONDS);
			}).forPath("/hold");
			other.setData().forPath("/hold", new byte[1]);
			assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
			int mark = output.getOut().length();
			other.create().forPath(root + "/unreadable", new byte[0]);
			ACL onlyOthers = new ACL(ZooDefs.Perms.ALL,
					new Id("digest", DigestAuthenticationProvider.generateDigest("someone-else:secret")));
			other.setACL().withACL(List.of(onlyOthers)).forPath(root + "/unreadable");
			release.countDown();
			awaitFailureLogged(output, mark, root);
		}
		assertThat(a.shards().isMember()).isTrue();
	}

	private static void awaitFailureLogged(CapturedOutput output, int mark, String root) {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> output.getOut().substring(mark).contains("A read of the shard nodes under " + root + " failed"));
		String after = output.getOut().substring(mark);
		assertThat(after).contains("NoAuth").doesNotContain("CuratorCache error").doesNotContain("\tat ");
	}

}
