package dev.zkspring.observation;

import java.util.Map;

import io.micrometer.observation.transport.ReceiverContext;

/**
 * The observation of one run of a Quartz job on the leader-gated scheduler, as its conventions read it: a new
 * trace, or, for a run someone asked for from inside a trace, the continuation of theirs. A receiver's context
 * whose carrier is the asker's trace context fields (empty for a scheduled run), so the tracer's propagating
 * receiver handler makes the asker's span the run's parent when tracing is present.
 */
public class ZkJobRunContext extends ReceiverContext<Map<String, String>> {

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
		this(jobGroup, jobName, epoch, Map.of());
	}

	/**
	 * Create the context of a run that continues the trace of whoever asked for it.
	 * @param jobGroup the job's Quartz group
	 * @param jobName the job's Quartz name
	 * @param epoch the leadership epoch the run was allowed under, or {@code none}
	 * @param trace the asker's trace context fields ({@code traceparent}, say); empty for a new trace
	 */
	public ZkJobRunContext(String jobGroup, String jobName, String epoch, Map<String, String> trace) {
		super((carrier, field) -> carrier.get(field));
		setCarrier(Map.copyOf(trace));
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
