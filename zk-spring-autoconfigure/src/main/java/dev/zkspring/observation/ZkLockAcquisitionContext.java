package dev.zkspring.observation;

import io.micrometer.observation.Observation;

/** The observation of the wait to take a {@code @ZkLock} or {@code ZkLockTemplate} lock, as its conventions read it. */
public class ZkLockAcquisitionContext extends Observation.Context {

	private final String lockName;

	private final String mode;

	private String outcome = "unknown";

	/**
	 * Create the context.
	 * @param lockName the lock's declared name (key expression, method, or {@code template}), never the key
	 * @param mode MUTEX, READ or WRITE (as the endpoint and the zk.lock meters name it)
	 */
	public ZkLockAcquisitionContext(String lockName, String mode) {
		this.lockName = lockName;
		this.mode = mode;
	}

	/** The lock's declared name (key expression, method, or {@code template}), never the key. */
	public String getLockName() {
		return this.lockName;
	}

	/** Mutex, read or write. */
	public String getMode() {
		return this.mode;
	}

	/** Acquired, busy, timed_out, lost, interrupted or unavailable; set when the wait ends. */
	public String getOutcome() {
		return this.outcome;
	}

	/** Set acquired, busy, timed_out, lost, interrupted or unavailable. */
	public void setOutcome(String outcome) {
		this.outcome = outcome;
	}

}
