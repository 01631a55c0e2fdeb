package dev.zkspring.observation;

import io.micrometer.observation.Observation;

/** The observation of one leadership term of this instance, from granted to revoked, as its conventions read it. */
public class ZkLeadershipTermContext extends Observation.Context {

	private final String group;

	private final String epoch;

	private String reason = "unknown";

	/**
	 * Create the context.
	 * @param group the election's latch path
	 * @param epoch the term's epoch
	 */
	public ZkLeadershipTermContext(String group, String epoch) {
		this.group = group;
		this.epoch = epoch;
	}

	/** The election's latch path. */
	public String getGroup() {
		return this.group;
	}

	/** The term's epoch. */
	public String getEpoch() {
		return this.epoch;
	}

	/** Why the term ended (session_lost, shutdown...); set when it is revoked. */
	public String getReason() {
		return this.reason;
	}

	/** Set why the term ended (session_lost, shutdown...). */
	public void setReason(String reason) {
		this.reason = reason;
	}

}
