package dev.zkspring.observation;

import io.micrometer.observation.Observation;

/** The observation of one run of a Quartz job on the leader-gated scheduler; a new trace, as its conventions read it. */
public class ZkJobRunContext extends Observation.Context {

	private final String jobGroup;

	private final String jobName;

	private final String epoch;

	private String outcome = "unknown";

	/**
	 * Create the context.
	 * @param jobGroup the job's Quartz group
	 * @param jobName the job's Quartz name
	 * @param epoch the leadership epoch the run was allowed under, or {@code none}
	 */
	public ZkJobRunContext(String jobGroup, String jobName, String epoch) {
		this.jobGroup = jobGroup;
		this.jobName = jobName;
		this.epoch = epoch;
	}

	/** The job's Quartz group. */
	public String getJobGroup() {
		return this.jobGroup;
	}

	/** The job's Quartz name. */
	public String getJobName() {
		return this.jobName;
	}

	/** The leadership epoch the run was allowed under, or {@code none}. */
	public String getEpoch() {
		return this.epoch;
	}

	/** Succeeded or failed; set when the run ends. */
	public String getOutcome() {
		return this.outcome;
	}

	/** Set succeeded or failed. */
	public void setOutcome(String outcome) {
		this.outcome = outcome;
	}

}
