package dev.zkspring.leader;

/**
 * What a leader-gated Quartz scheduler does with jobs still running when this instance stops leading.
 * Either way the scheduler goes to standby at once, so no new firing starts.
 */
public enum RevokePolicy {

	/**
	 * Let running jobs finish. A job that outlives the revocation may overlap with the successor's
	 * first firing unless the revocation is a graceful shutdown, which waits for it.
	 */
	STANDBY,

	/**
	 * Interrupt running jobs that implement {@code org.quartz.InterruptableJob}; other jobs finish as
	 * with {@link #STANDBY}.
	 */
	INTERRUPT

}
