package dev.zkspring.leader.shard;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.shard.ShardedJobsApp.Instance;
import dev.zkspring.leader.shard.ShardedJobsApp.Run;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application with the gated scheduler and no sharded job keeps no shard member node and runs no
 * scan; the first job sharded from the config center at runtime makes it a member, and its shards run.
 */
class ShardsOnDemandTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	// a period of an hour: nothing fires on its own during the test
	@RegisterExtension
	final ShardedJobsApp.Instances instances = new ShardedJobsApp.Instances(zk, "test.period-millis=3600000");

	private CuratorFramework writer;

	@BeforeEach
	void connect() throws Exception {
		this.writer = zk.newClient();
	}

	@AfterEach
	void close() {
		this.writer.close();
	}

	@Test
	void noShardMemberNorScanWithoutAShardedJobAndTheFirstShardedJobFromTheConfigCenterStartsThem() throws Exception {
		Instance a = this.instances.start("a");
		Instance b = this.instances.start("b");
		await().atMost(Duration.ofSeconds(10)).until(() -> a.election().isLeader() || b.election().isLeader());
		String shardsRoot = a.election().latchPath() + ".shards";
		assertThat(a.shards().isMember()).isFalse();
		assertThat(b.shards().isMember()).isFalse();
		assertThat(this.writer.checkExists().forPath(shardsRoot)).as("%s with no sharded job", shardsRoot).isNull();
		assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName).doesNotContain("zk-shard-scan");

		publish("{\"zk\":{\"quartz\":{\"jobs\":{\"report\":{\"shards\":\"2\"}}}}}");
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(a.shards().isMember()).isTrue();
			assertThat(b.shards().isMember()).isTrue();
			assertThat(this.writer.getChildren().forPath(shardsRoot + "/members")).containsExactlyInAnyOrder("a", "b");
		});
		Instance follower = a.election().isLeader() ? b : a;
		JobAnswer answer = follower.context().getBean(ZkJobs.class).request("DEFAULT", "report", "run");
		assertThat(answer.status()).isEqualTo(JobAnswer.Status.STARTED);
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ShardedJobsApp.runs)
			.extracting(Run::index).containsExactlyInAnyOrder(0, 1));
	}

	@Test
	void removingTheLastShardedJobLeavesTheMembersStopsTheScanAndShardingAgainJoinsAgain() throws Exception {
		Instance a = this.instances.start("a");
		await().atMost(Duration.ofSeconds(10)).until(() -> a.election().isLeader());
		String members = a.election().latchPath() + ".shards/members";
		publish("{\"zk\":{\"quartz\":{\"jobs\":{\"report\":{\"shards\":\"2\"}}}}}");
		await().atMost(Duration.ofSeconds(10)).until(() -> a.shards().isMember());
		assertThat(this.writer.getChildren().forPath(members)).containsExactly("a");

		publish("{\"zk\":{\"quartz\":{\"jobs\":{\"report\":{}}}}}");
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(a.shards().isMember()).isFalse();
			assertThat(this.writer.getChildren().forPath(members)).isEmpty();
			assertThat(Thread.getAllStackTraces().keySet()).filteredOn(Thread::isAlive).extracting(Thread::getName)
				.doesNotContain("zk-shard-scan");
		});

		publish("{\"zk\":{\"quartz\":{\"jobs\":{\"report\":{\"shards\":\"3\"}}}}}");
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			assertThat(a.shards().isMember()).isTrue();
			assertThat(this.writer.getChildren().forPath(members)).containsExactly("a");
		});
		JobAnswer answer = a.context().getBean(ZkJobs.class).request("DEFAULT", "report", "run");
		assertThat(answer.status()).isEqualTo(JobAnswer.Status.STARTED);
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(ShardedJobsApp.runs)
			.extracting(Run::index).containsExactlyInAnyOrder(0, 1, 2));
	}

	private void publish(String json) throws Exception {
		String node = "/config/" + this.instances.name();
		byte[] data = json.getBytes(StandardCharsets.UTF_8);
		if (this.writer.checkExists().forPath(node) == null) {
			this.writer.create().creatingParentsIfNeeded().forPath(node, data);
		}
		else {
			this.writer.setData().forPath(node, data);
		}
	}

}
