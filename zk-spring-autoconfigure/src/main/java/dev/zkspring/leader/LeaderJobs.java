package dev.zkspring.leader;

import org.quartz.JobExecutionContext;

/** What a leader-gated Quartz job can learn about the leadership it runs under. */
public final class LeaderJobs {

	/** Key of the epoch in each execution's merged {@code JobDataMap}. */
	public static final String EPOCH_KEY = "zk.leader.epoch";

	private LeaderJobs() {
	}

	/**
	 * The epoch of the leadership this execution was allowed under, to pass on as a fencing token.
	 * @param context the execution
	 * @return the epoch, or 0 when the scheduler is not leader-gated
	 */
	public static long epoch(JobExecutionContext context) {
		Object epoch = context.getMergedJobDataMap().get(EPOCH_KEY);
		return (epoch instanceof Long value) ? value : 0;
	}

}
