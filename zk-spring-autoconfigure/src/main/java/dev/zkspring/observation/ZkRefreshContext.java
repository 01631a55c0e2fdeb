package dev.zkspring.observation;

import io.micrometer.observation.Observation;

/** The observation of one configuration refresh: the change checked, then applied or refused, as its conventions read it. */
public class ZkRefreshContext extends Observation.Context {

	private final String contexts;

	private final int keysChanged;

	private String outcome = "unknown";

	/**
	 * Create the context.
	 * @param contexts the context znodes the change was read from, comma separated
	 * @param keysChanged how many keys the change adds, changes or removes
	 */
	public ZkRefreshContext(String contexts, int keysChanged) {
		this.contexts = contexts;
		this.keysChanged = keysChanged;
	}

	/** The context znodes the change was read from, comma separated. */
	public String getContexts() {
		return this.contexts;
	}

	/** How many keys the change adds, changes or removes. */
	public int getKeysChanged() {
		return this.keysChanged;
	}

	/** Applied, refused or failed; set when the refresh ends. */
	public String getOutcome() {
		return this.outcome;
	}

	/** Set applied, refused or failed. */
	public void setOutcome(String outcome) {
		this.outcome = outcome;
	}

}
