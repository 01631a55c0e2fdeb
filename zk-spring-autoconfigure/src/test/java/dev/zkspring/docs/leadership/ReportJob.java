package dev.zkspring.docs.leadership;

import org.quartz.Job;
import org.quartz.JobExecutionContext;

import dev.zkspring.leader.LeaderJobs;

/** The job of docs/leadership.md's examples: checks its leadership before it writes. */
class ReportJob implements Job {

	@Override
	public void execute(JobExecutionContext context) {
		LeaderJobs.assertLeading(context);
	}

}
