package dev.zkspring.jobs;

import dev.zkspring.leader.jobs.JobOperations;

/** Tests of the job operations reach what the Quartz gate drives behind the public {@link ZkJobs}. */
public final class JobsAccess {

	private JobsAccess() {
	}

	public static JobOperations operations(ZkJobs jobs) {
		return jobs.operations();
	}

}
