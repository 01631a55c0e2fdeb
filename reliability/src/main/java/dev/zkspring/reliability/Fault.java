package dev.zkspring.reliability;

/** The faults the campaign injects, one at a time, on a seeded schedule. */
enum Fault {

	/** kill -9 of a workload JVM, restarted after a moment. */
	KILL_WORKLOAD,

	/** SIGSTOP of a workload JVM past its session timeout, then SIGCONT. */
	FREEZE_WORKLOAD,

	/** A workload JVM cut from every server for less than its session timeout. */
	PARTITION_SHORT,

	/** A workload JVM cut from every server for longer than its session timeout. */
	PARTITION_LONG,

	/** kill -9 of the ensemble's leader, restarted. */
	KILL_ZK_LEADER,

	/** kill -9 of a follower, restarted. */
	KILL_ZK_FOLLOWER,

	/** A quiet workload's session ended by the server (taken over and closed by another connection) once its lease ran out. */
	EXPIRE_SESSION,

	/** A burst of configuration writes, malformed and unconvertible ones among them. */
	CONFIG_BURST

}
