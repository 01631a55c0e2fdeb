package dev.zkspring.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.zkspring.leader.ElectionGroup;
import dev.zkspring.leader.ZkLeaderElection;

/** Describes one leader election for the health contributor and the endpoint. */
final class Leadership {

	private Leadership() {
	}

	/**
	 * Describe the election. The group is read from the ensemble only while connected and never waits on
	 * the retry policy: otherwise it is the last known one, marked {@code "stale": true} with the time it
	 * was read ({@code asOf}), so a health check or status page answers at once while ZooKeeper is away.
	 */
	static Map<String, Object> describe(ZkLeaderElection election, boolean withParticipants) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("me", election.participantId());
		details.put("leader", election.isLeader());
		details.put("epoch", election.epoch());
		ElectionGroup group = election.group();
		group.leaderId().ifPresent((id) -> details.put("leaderId", id));
		if (withParticipants) {
			details.put("participants", group.participants());
		}
		details.put("stale", group.stale());
		if (group.asOf() != null) {
			details.put("asOf", group.asOf().toString());
		}
		return details;
	}

}
