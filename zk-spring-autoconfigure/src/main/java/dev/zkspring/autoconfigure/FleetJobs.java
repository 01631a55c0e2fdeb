package dev.zkspring.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;

import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.jobs.ZkShards;

/**
 * Puts the gated scheduler's jobs in this instance's fleet node, so the operator's tool lists every job with its
 * leader group and shard count, one that never ran too (its runs alone named only jobs that ran). Short fields,
 * defaults left out: the node is read for every instance of a fleet of hundreds. Shown again after a
 * configuration change (after the shard settings bound it: lowest precedence), rewritten only when it changed.
 */
final class FleetJobs implements SmartInitializingSingleton, ApplicationListener<ZkConfigChangedEvent>, Ordered {

	private final ObjectProvider<ZkFleet> fleet;

	private final ObjectProvider<ZkJobs> jobs;

	private final ObjectProvider<ZkShards> shards;

	FleetJobs(ObjectProvider<ZkFleet> fleet, ObjectProvider<ZkJobs> jobs, ObjectProvider<ZkShards> shards) {
		this.fleet = fleet;
		this.jobs = jobs;
		this.shards = shards;
	}

	@Override
	public void afterSingletonsInstantiated() {
		show();
	}

	@Override
	public void onApplicationEvent(ZkConfigChangedEvent event) {
		show();
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	private void show() {
		ZkFleet fleet = this.fleet.getIfUnique();
		ZkJobs jobs = this.jobs.getIfUnique();
		if (fleet != null && jobs != null) {
			ZkShards shards = this.shards.getIfUnique();
			fleet.showJobs(() -> describe(jobs, shards));
		}
	}

	static List<Map<String, Object>> describe(ZkJobs jobs, @Nullable ZkShards shards) {
		List<Map<String, Object>> shown = new ArrayList<>();
		for (Map<String, Object> job : jobs.jobs()) {
			Map<String, Object> entry = new LinkedHashMap<>();
			String name = String.valueOf(job.get("name"));
			entry.put("name", name);
			if (!JobKey.DEFAULT_GROUP.equals(job.get("group"))) {
				entry.put("group", job.get("group"));
			}
			if (job.get("leaderGroup") != null) {
				entry.put("leaderGroup", job.get("leaderGroup"));
			}
			Integer count = (shards != null) ? shards.shards(name) : null;
			if (count != null) {
				entry.put("shards", count);
			}
			shown.add(entry);
		}
		return shown;
	}

}
