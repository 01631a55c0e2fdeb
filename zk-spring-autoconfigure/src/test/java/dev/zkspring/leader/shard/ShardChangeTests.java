package dev.zkspring.leader.shard;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

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
 * Changes from the config center: a new number of shards and new parameters apply from one fire time on,
 * on every instance at once (each fire time runs with one setting); a refused value keeps the settings.
 * And run-now: one extra fire time, each shard once.
 */
class ShardChangeTests {

	private static final long PERIOD = 500;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final ShardedJobsApp.Instances instances = new ShardedJobsApp.Instances(zk, "zk.quartz.jobs.report.shards=2",
			"zk.quartz.jobs.report.shard-parameters=0=old,1=old");

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
	void aChangeOfShardsAndParametersAppliesFromOneFireTimeOnEverywhereAndARefusedOneKeepsThem() throws Exception {
		this.instances.start("a", "test.period-millis=" + PERIOD);
		this.instances.start("b", "test.period-millis=" + PERIOD);
		this.instances.start("c", "test.period-millis=" + PERIOD);
		await().atMost(Duration.ofSeconds(20)).until(() -> ShardedJobsApp.runs.size() >= 6);
		publish("{\"zk\":{\"quartz\":{\"jobs\":{\"report\":{\"shards\":\"3\",\"shard-parameters\":\"0=new,1=new,2=new\"}}}}}");
		long changed = await().atMost(Duration.ofSeconds(20)).until(() -> firstFireTimeWith(3), (t) -> t > 0);
		publish("{\"zk\":{\"quartz\":{\"jobs\":{\"report\":{\"shards\":\"0\",\"shard-parameters\":\"0=bad\"}}}}}");
		long refusedAt = System.currentTimeMillis() / PERIOD * PERIOD + 2 * PERIOD;
		long end = refusedAt + 4 * PERIOD;
		await().atMost(Duration.ofSeconds(20)).until(() -> {
			Map<String, List<String>> perShard = ShardedJobsApp.runsPerShard(end, end);
			return perShard.size() == 3;
		});
		Map<Long, List<Run>> byFireTime = ShardedJobsApp.runs.stream().filter((run) -> run.fireTime() <= end)
			.collect(Collectors.groupingBy(Run::fireTime));
		byFireTime.forEach((fireTime, runs) -> {
			Set<String> settings = runs.stream().map((run) -> run.total() + ":" + run.parameter()).collect(Collectors.toSet());
			assertThat(settings).as("settings the shards of fire time " + fireTime + " ran with, on " + runs).hasSize(1);
			int total = runs.get(0).total();
			assertThat(total).as("shards of fire time " + fireTime).isEqualTo((fireTime < changed) ? 2 : 3);
			assertThat(runs).extracting(Run::index).as("shards run at " + fireTime).hasSize(total)
				.doesNotHaveDuplicates();
			if (fireTime >= changed) {
				assertThat(runs).extracting(Run::parameter).containsOnly("new");
			}
		});
	}

	@Test
	void runNowRunsEachShardOnce() {
		// a period of an hour: nothing fires on its own during the test
		Instance a = this.instances.start("a", "test.period-millis=3600000");
		Instance b = this.instances.start("b", "test.period-millis=3600000");
		await().atMost(Duration.ofSeconds(10)).until(() -> a.election().isLeader() || b.election().isLeader());
		Instance follower = a.election().isLeader() ? b : a;
		JobAnswer answer = follower.context().getBean(ZkJobs.class).request("DEFAULT", "report", "run");
		assertThat(answer.status()).isEqualTo(JobAnswer.Status.STARTED);
		await().atMost(Duration.ofSeconds(10)).until(() -> ShardedJobsApp.runs.size() >= 2);
		await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> ShardedJobsApp.runs.size() == 2);
		assertThat(ShardedJobsApp.runs).extracting(Run::index).containsExactlyInAnyOrder(0, 1);
		assertThat(ShardedJobsApp.runs).extracting(Run::fireTime).containsOnly(ShardedJobsApp.runs.get(0).fireTime());
	}

	private long firstFireTimeWith(int total) {
		return ShardedJobsApp.runs.stream().filter((run) -> run.total() == total).mapToLong(Run::fireTime).min().orElse(-1);
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
