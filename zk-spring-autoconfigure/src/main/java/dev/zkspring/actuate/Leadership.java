package dev.zkspring.actuate;

import java.util.LinkedHashMap;
import java.util.Map;

import dev.zkspring.leader.ZkLeaderElection;

/** Describes one leader election for the health contributor and the endpoint. */
final class Leadership {

	private Leadership() {
	}

	/**
	 * Describe the election; what has to be asked of the ensemble is only asked while connected, so a
	 * health check never waits on a lost connection.
	 */
	static Map<String, Object> describe(ZkLeaderElection election, boolean connected, boolean withParticipants) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("me", election.participantId());
		details.put("leader", election.isLeader());
		details.put("epoch", election.epoch());
		if (connected) {
			try {
				election.leaderId().ifPresent((id) -> details.put("leaderId", id));
				if (withParticipants) {
					details.put("participants", election.participants());
				}
			}
			catch (IllegalStateException ex) {
				details.put("error", "could not read the group from ZooKeeper");
			}
		}
		return details;
	}

}
