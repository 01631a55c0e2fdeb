package dev.zkspring.observation;

import io.micrometer.observation.Observation;

/** The observation of the hold of a lock, with the guarded body inside its scope, as its conventions read it. */
public class ZkLockHoldContext extends Observation.Context {

	private final String lockName;

	private final String mode;

	private String outcome = "unknown";

	/**
	 * Create the context.
	 * @param lockName the lock's declared name, never the key
	 * @param mode MUTEX, READ or WRITE (as the endpoint and the zk.lock meters name it)
	 */
	public ZkLockHoldContext(String lockName, String mode) {
		this.lockName = lockName;
		this.mode = mode;
	}

	/** The lock's declared name, never the key. */
	public String getLockName() {
		return this.lockName;
	}

	/** Mutex, read or write. */
	public String getMode() {
		return this.mode;
	}

	/** Released, lost or failed (the body threw); set when the lock is given back. */
	public String getOutcome() {
		return this.outcome;
	}

	/** Set released, lost or failed (the body threw). */
	public void setOutcome(String outcome) {
		this.outcome = outcome;
	}

}
