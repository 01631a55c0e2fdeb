package dev.zkspring.leader;

/**
 * Thrown by {@link ZkLeaderElection#assertLeading(long)} and {@link LeaderJobs#assertLeading} when
 * leader-only work finds that the leadership it started under has ended or is in doubt, so it stops
 * before writing as a deposed leader.
 */
public class LeadershipLostException extends IllegalStateException {

	private final long epoch;

	/**
	 * Create the exception.
	 * @param latchPath the group's latch node
	 * @param epoch the epoch the work started under
	 */
	public LeadershipLostException(String latchPath, long epoch) {
		super("This instance no longer leads " + latchPath + " under epoch " + epoch
				+ ": stop, and let the resource refuse writes fenced with an older epoch");
		this.epoch = epoch;
	}

	/** The epoch of the leadership that ended. */
	public long getEpoch() {
		return this.epoch;
	}

}
