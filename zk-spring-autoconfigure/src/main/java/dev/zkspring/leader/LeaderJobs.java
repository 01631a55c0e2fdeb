package dev.zkspring.leader;

import org.quartz.JobExecutionContext;

import dev.zkspring.leader.term.LeaderRecords;

/** What a leader-gated Quartz job can learn about the leadership it runs under. */
public final class LeaderJobs {

	/** Key of the epoch in each execution's merged {@code JobDataMap}. */
	public static final String EPOCH_KEY = "zk.leader.epoch";

	/**
	 * Prefix of the keys, in a requested run's merged {@code JobDataMap}, of the trace context fields of whoever
	 * asked for it ({@code zk.trace.traceparent}, say), so the run's observation continues the asker's trace.
	 */
	public static final String TRACE_PREFIX = "zk.trace.";

	/** Key of the election in each execution's merged {@code JobDataMap}, for {@link #assertLeading}. */
	static final String ELECTION_KEY = LeaderRecords.ELECTION_KEY;

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

	/**
	 * Whether this execution's leadership still holds now: call it before each write a deposed leader
	 * must not make, and pass {@link #epoch} to the resource so it can refuse older epochs (fencing).
	 * @param context the execution
	 * @return whether this instance still leads under the execution's epoch
	 */
	public static boolean isLeading(JobExecutionContext context) {
		Object election = context.getMergedJobDataMap().get(ELECTION_KEY);
		return election instanceof ZkLeaderElection current && current.isLeading(epoch(context));
	}

	/**
	 * Fail unless this execution's leadership still holds now.
	 * @param context the execution
	 * @throws LeadershipLostException when the leadership has ended or is in doubt
	 */
	public static void assertLeading(JobExecutionContext context) {
		Object election = context.getMergedJobDataMap().get(ELECTION_KEY);
		if (!(election instanceof ZkLeaderElection current)) {
			throw new IllegalStateException("Execution of " + context.getJobDetail().getKey()
					+ " was not allowed by a leader-gated scheduler: it has no leadership to check");
		}
		current.assertLeading(epoch(context));
	}

}
