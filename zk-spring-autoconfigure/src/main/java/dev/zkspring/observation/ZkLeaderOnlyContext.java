package dev.zkspring.observation;

import io.micrometer.observation.Observation;

/** The observation of one call of a {@code @LeaderOnly} method, run or skipped, as its conventions read it. */
public class ZkLeaderOnlyContext extends Observation.Context {

	private final String method;

	private final String group;

	private String outcome = "ran";

	/**
	 * Create the context.
	 * @param method the method, as Class.method
	 * @param group the election's latch path
	 */
	public ZkLeaderOnlyContext(String method, String group) {
		this.method = method;
		this.group = group;
	}

	/** The method, as Class.method. */
	public String getMethod() {
		return this.method;
	}

	/** The election's latch path. */
	public String getGroup() {
		return this.group;
	}

	/** Ran, skipped or failed; set when the call ends. */
	public String getOutcome() {
		return this.outcome;
	}

	/** Set ran, skipped or failed. */
	public void setOutcome(String outcome) {
		this.outcome = outcome;
	}

}
