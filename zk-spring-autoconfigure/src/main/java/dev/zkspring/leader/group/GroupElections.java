package dev.zkspring.leader.group;

import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import dev.zkspring.leader.ZkLeaderElection;

/**
 * The leader groups of {@code zk.leader.groups} as the job operations see them: each group's election and
 * the group of each Quartz job, so the parts above the groups need not know their public entry point.
 * @param elections by group name
 * @param jobGroups the group of each Quartz job named in one, by job name
 */
public record GroupElections(Map<String, ZkLeaderElection> elections, Map<String, String> jobGroups) {

	/** The election of a group, {@code null} when no such group is configured. */
	public @Nullable ZkLeaderElection election(String group) {
		return this.elections.get(group);
	}

	/** The group a Quartz job (by its name) belongs to; empty for a job of the application's own election. */
	public Optional<String> groupOf(String jobName) {
		return Optional.ofNullable(this.jobGroups.get(jobName));
	}

}
