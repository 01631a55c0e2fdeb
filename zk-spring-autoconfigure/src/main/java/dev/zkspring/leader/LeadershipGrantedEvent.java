package dev.zkspring.leader;

import org.springframework.context.ApplicationEvent;

/**
 * This instance became leader of its group. Published on the election's leadership thread, after the
 * {@link LeadershipListener}s (so the Quartz scheduler is already started).
 */
public class LeadershipGrantedEvent extends ApplicationEvent {

	private final String participantId;

	private final long epoch;

	private final LeadershipReason reason;

	public LeadershipGrantedEvent(ZkLeaderElection source, String participantId, long epoch,
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

	/** The epoch of the new leadership, greater than any earlier one in the group. */
	public long getEpoch() {
		return this.epoch;
	}

	/** Why leadership was granted. */
	public LeadershipReason getReason() {
		return this.reason;
	}

	@Override
	public String toString() {
		return "LeadershipGrantedEvent[" + this.participantId + ", epoch " + this.epoch + ", " + this.reason + "]";
	}

}
