package dev.zkspring.leader;

/** Why this instance gained or lost leadership, carried by the leadership events. */
public enum LeadershipReason {

	/** The latch chose this instance and ZooKeeper confirmed its latch node. */
	ELECTED,

	/** The connection came back with the same session and the latch node still leads. */
	RECONNECTED,

	/** The connection to ZooKeeper is in doubt; another instance may take over if it does not recover. */
	CONNECTION_SUSPENDED,

	/**
	 * The session lease lapsed: this instance has not heard from ZooKeeper recently enough to be sure
	 * its session is alive (a frozen process resuming, a slow network); it leads again once it has.
	 */
	SESSION_IN_DOUBT,

	/** The session expired, so its latch node is gone; the instance re-joins the election. */
	SESSION_LOST,

	/** The instance's latch node disappeared or belongs to an ended session; it re-joins the election. */
	NODE_LOST,

	/** This instance leads more groups than its share and hands this one over (see {@code zk.leader.max-groups}). */
	REBALANCED,

	/** The application is stopping and hands leadership over. */
	SHUTDOWN

}
