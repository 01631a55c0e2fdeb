package dev.zkspring.leader;

import org.springframework.context.ApplicationEvent;

/**
 * This instance stopped leading its group. Published on the election's leadership thread, after the
 * {@link LeadershipListener}s (so the Quartz scheduler is already in standby).
 */
public class LeadershipRevokedEvent extends ApplicationEvent {

	private final String participantId;

	private final long epoch;

	private final LeadershipReason reason;

	public LeadershipRevokedEvent(ZkLeaderElection source, String participantId, long epoch,
			LeadershipReason reason) {
		super(source);
		this.participantId = participantId;
		this.epoch = epoch;
		this.reason = reason;
	}

	/** The election that changed. */
	public ZkLeaderElection getElection() {
		return (ZkLeaderElection) getSource();
	}

	/** This instance's participant id. */
	public String getParticipantId() {
		return this.participantId;
	}

	/** The epoch of the leadership that ended. */
	public long getEpoch() {
		return this.epoch;
	}

	/** Why leadership was revoked. */
	public LeadershipReason getReason() {
		return this.reason;
	}

	@Override
	public String toString() {
		return "LeadershipRevokedEvent[" + this.participantId + ", epoch " + this.epoch + ", " + this.reason + "]";
	}

}
