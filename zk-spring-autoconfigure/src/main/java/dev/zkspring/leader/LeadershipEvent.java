package dev.zkspring.leader;

import org.springframework.context.ApplicationEvent;

/**
 * A change of this instance's leadership: granted or revoked. Listen for this type to hear both with
 * one listener; the epoch works as a fencing token.
 */
public abstract class LeadershipEvent extends ApplicationEvent {

	private final String participantId;

	private final long epoch;

	private final LeadershipReason reason;

	protected LeadershipEvent(ZkLeaderElection source, String participantId, long epoch, LeadershipReason reason) {
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

	/** The epoch of the leadership that began or ended. */
	public long getEpoch() {
		return this.epoch;
	}

	/** Why leadership was granted or revoked. */
	public LeadershipReason getReason() {
		return this.reason;
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + "[" + this.participantId + ", epoch " + this.epoch + ", " + this.reason + "]";
	}

}
