package dev.zkspring.leader.shard;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.leader.shard.ShardedJobsApp.Instance;
import dev.zkspring.leader.shard.ShardedJobsApp.Run;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Three real Spring contexts running a 4-shard job with parameters: each fire time runs each shard once,
 * spread over the instances, sticky; across a graceful stop of the leader, an expired session and a
 * rolling change of the grouping, each (fire time, shard) runs once, late when its owner was lost.
 */
class ShardedJobIntegrationTests {

	private static final long PERIOD = 500;

	private static final String PARAMETERS = "zk.quartz.jobs.report.shard-parameters=0=Beijing,1=Shanghai,2=Shenzhen,3=Hangzhou";

	private static final List<String> CITIES = List.of("Beijing", "Shanghai", "Shenzhen", "Hangzhou");

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final ShardedJobsApp.Instances instances = new ShardedJobsApp.Instances(zk, "test.period-millis=" + PERIOD,
			"zk.quartz.jobs.report.shards=4", PARAMETERS, "zk.leader.drain-timeout=5s");

	@Test
	@SuppressWarnings("unchecked")
	void eachFireTimeRunsEachShardOnceWithItsParameterSpreadEvenlyAndSticky() {
		Instance a = this.instances.start("a");
		this.instances.start("b");
		this.instances.start("c");
		// a joining instance takes one shard per fire time: settled once a fire time uses all three
		long settled = await().atMost(Duration.ofSeconds(20)).until(() -> firstFireTimeOnInstances(3), (t) -> t > 0);
		long last = settled + 6 * PERIOD;
		awaitEachShardRan(settled, last);
		assertEachShardOnce(settled, last);
		assertThat(ShardedJobsApp.runs).filteredOn((run) -> run.fireTime() >= settled)
			.allSatisfy((run) -> assertThat(run.parameter()).as("parameter of shard " + run.index())
				.isEqualTo(CITIES.get(run.index())))
			.allSatisfy((run) -> assertThat(run.total()).isEqualTo(4));
		for (long fireTime = settled; fireTime <= last; fireTime += PERIOD) {
			Map<String, Long> load = owners(fireTime).values().stream()
				.collect(Collectors.groupingBy((owner) -> owner, Collectors.counting()));
			assertThat(load.values()).as("shards per instance at " + fireTime).containsExactlyInAnyOrder(2L, 1L, 1L);
			assertThat(owners(fireTime)).as("owners stay put once even").isEqualTo(owners(settled));
		}
		// what the endpoint shows: the owners in force, each shard's run of the last fire times; no parameter
		Map<String, Object> view = a.shards().describe(2).get(0);
		assertThat(view.get("job")).isEqualTo("DEFAULT.report");
		assertThat((List<String>) view.get("owners")).hasSize(4).containsOnly("a", "b", "c");
		assertThat(view.toString()).doesNotContain("Beijing");
		List<Map<String, Object>> fires = (List<Map<String, Object>>) view.get("fires");
		assertThat(fires).hasSize(2);
		Map<String, Object> older = fires.get(1);
		assertThat((List<Map<String, Object>>) older.get("shards")).hasSize(4).allSatisfy((shard) -> {
			assertThat(shard.get("instance")).isEqualTo(shard.get("owner"));
			assertThat(shard.get("outcome")).isEqualTo("OK");
		});
	}

	@Test
	void eachShardRunsOnceAcrossAGracefulStopOfTheLeaderAnExpiredSessionAndARegrouping() throws Exception {
		Instance a = this.instances.start("a", "test.recovery=true");
		Instance b = this.instances.start("b", "test.recovery=true");
		Instance c = this.instances.start("c", "test.recovery=true");
		long settled = await().atMost(Duration.ofSeconds(20)).until(() -> firstFireTimeOnInstances(3), (t) -> t > 0);
		Instance leader = List.of(a, b, c).stream().filter((instance) -> instance.election().isLeader()).findFirst().orElseThrow();
		Instance other = (leader == c) ? b : c;
		leader.context().close();
		ZooKeeperExtension.expireSession(other.client());
		// the rolling change: a new instance gates report by a leader group of its own
		this.instances.start("d", "test.recovery=true", "zk.leader.groups.reports=report");
		long end = System.currentTimeMillis() / PERIOD * PERIOD + 8 * PERIOD;
		await().atMost(Duration.ofSeconds(30)).until(() -> ShardedJobsApp.runs.stream().anyMatch((run) -> run.fireTime() > end));
		awaitEachShardRan(settled, end);
		assertEachShardOnce(settled, end);
	}

	private static void awaitEachShardRan(long from, long to) {
		await().atMost(Duration.ofSeconds(30)).until(() -> {
			Map<String, List<String>> perShard = ShardedJobsApp.runsPerShard(from, to);
			for (long fireTime = from; fireTime <= to; fireTime += PERIOD) {
				for (int i = 0; i < 4; i++) {
					if (!perShard.containsKey(fireTime + "#" + i)) {
						return false;
					}
				}
			}
			return true;
		});
	}

	private static void assertEachShardOnce(long from, long to) {
		Map<String, List<String>> perShard = ShardedJobsApp.runsPerShard(from, to);
		for (long fireTime = from; fireTime <= to; fireTime += PERIOD) {
			for (int i = 0; i < 4; i++) {
				assertThat(perShard.get(fireTime + "#" + i)).as("instances that ran shard " + i + " of fire time " + fireTime)
					.hasSize(1);
			}
		}
		assertThat(perShard.keySet()).as("(fire time, shard) runs off the lattice").allSatisfy((key) ->
				assertThat(Long.parseLong(key.substring(0, key.indexOf('#'))) % PERIOD).isZero());
	}

	/** Shard index to instance, for one fire time. */
	private static Map<Integer, String> owners(long fireTime) {
		return ShardedJobsApp.runs.stream().filter((run) -> run.fireTime() == fireTime)
			.collect(Collectors.toMap(Run::index, Run::instance, (x, y) -> x + "+" + y));
	}

	private static long firstFireTimeOnInstances(int count) {
		Map<Long, Set<String>> instancesPerFireTime = ShardedJobsApp.runs.stream()
			.collect(Collectors.groupingBy(Run::fireTime, Collectors.mapping(Run::instance, Collectors.toSet())));
		return instancesPerFireTime.entrySet().stream().filter((e) -> e.getValue().size() >= count)
			.mapToLong(Map.Entry::getKey).min().orElse(-1);
	}

}
