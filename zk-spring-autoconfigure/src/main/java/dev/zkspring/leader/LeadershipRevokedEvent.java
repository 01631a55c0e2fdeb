package dev.zkspring.leader;

/**
 * This instance stopped leading its group; the event carries the epoch that ended. Published on the
 * election's leadership thread, after the {@link LeadershipListener}s (so the Quartz scheduler is
 * already in standby).
 */
public class LeadershipRevokedEvent extends LeadershipEvent {

	public LeadershipRevokedEvent(ZkLeaderElection source, String participantId, long epoch,
			LeadershipReason reason) {
		super(source, participantId, epoch, reason);
	}

}
