package dev.zkspring.leader;

/**
 * This instance became leader of its group, with an epoch greater than any earlier one in the group.
 * Published on the election's leadership thread, after the {@link LeadershipListener}s (so the Quartz
 * scheduler is already started).
 */
public class LeadershipGrantedEvent extends LeadershipEvent {

	public LeadershipGrantedEvent(ZkLeaderElection source, String participantId, long epoch,
			LeadershipReason reason) {
		super(source, participantId, epoch, reason);
	}

}
