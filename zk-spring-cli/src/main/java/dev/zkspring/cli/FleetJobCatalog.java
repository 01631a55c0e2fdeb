package dev.zkspring.cli;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;

import dev.zkspring.fleet.FleetInstances;

/**
 * What the live instances of one application say of their jobs in their fleet nodes (field {@code jobs}: each
 * job of an instance's gated scheduler, its leader group and shard count) and of their elections (who leads
 * each latch node), so that {@code jobs list} names jobs that never ran and a request for a job of a leader group
 * that nobody leads is answered "no leader" instead of timing out. An instance older than the {@code jobs} field
 * adds no job here: its jobs are known from their runs only, as before.
 */
final class FleetJobCatalog {

	/** One job as the fleet nodes describe it. */
	record Job(JobKey key, @Nullable String leaderGroup, @Nullable Integer shards) {
	}

	private final String latchPath;

	private final Map<JobKey, Job> jobs = new TreeMap<>();

	/** Latch node to the instance that leads it (the higher epoch when two still say so). */
	private final Map<String, String> leaders = new TreeMap<>();

	private FleetJobCatalog(String latchPath) {
		this.latchPath = latchPath;
	}

	static FleetJobCatalog read(CuratorFramework client, String fleetRoot, String application, String latchPath)
			throws Exception {
		FleetJobCatalog catalog = new FleetJobCatalog(latchPath);
		List<FleetInstances.Instance> instances = FleetInstances.read(client, fleetRoot, application);
		for (Map<String, Object> election : LeadersCommand.elections(instances)) {
			if (election.get("leader") != null) {
				catalog.leaders.put(String.valueOf(election.get("group")), String.valueOf(election.get("leader")));
			}
		}
		for (FleetInstances.Instance instance : instances) {
			if (!(instance.node().get("jobs") instanceof List<?> listed)) {
				continue;
			}
			for (Object item : listed) {
				Map<?, ?> job = (Map<?, ?>) item;
				Object group = job.get("group");
				JobKey key = JobKey.jobKey(String.valueOf(job.get("name")),
						(group != null) ? String.valueOf(group) : JobKey.DEFAULT_GROUP);
				Object leaderGroup = job.get("leaderGroup");
				Integer shards = (job.get("shards") instanceof Number number) ? number.intValue() : null;
				catalog.jobs.putIfAbsent(key, new Job(key, (leaderGroup != null) ? String.valueOf(leaderGroup) : null, shards));
			}
		}
		return catalog;
	}

	/** Every job some live instance has, by key. */
	Map<JobKey, Job> jobs() {
		return this.jobs;
	}

	@Nullable Job job(JobKey key) {
		return this.jobs.get(key);
	}

	/** The latch node of the election that runs the job: its leader group's, else the application's. */
	String electionOf(@Nullable String leaderGroup) {
		return (leaderGroup != null) ? groupLatch(this.latchPath, leaderGroup) : this.latchPath;
	}

	/** The instance that leads the election of that latch node, as its fleet node says, or {@code null}. */
	@Nullable String leaderOf(String latch) {
		return this.leaders.get(latch);
	}

	/** A leader group's latch node, beside the application's as the instances create it ({@code zk.leader.groups}). */
	static String groupLatch(String latchPath, String group) {
		return ZKPaths.makePath(latchPath + ".groups", group);
	}

	/** Whether any instance takes part in the election of that latch node now (it has a child). */
	static boolean hasParticipants(CuratorFramework client, String latch) throws Exception {
		try {
			return !client.getChildren().forPath(latch).isEmpty();
		}
		catch (KeeperException.NoNodeException ex) {
			return false;
		}
	}

	@Override
	public String toString() {
		return Objects.toString(this.jobs.keySet());
	}

}
