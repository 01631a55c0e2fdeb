package dev.zkspring.docs.leadership;

import org.quartz.Job;
import org.quartz.JobExecutionContext;

import dev.zkspring.leader.ShardContext;

/** docs/sharded-jobs.md, a sharded job (docs check: DocsSnippetsTests). */
// tag::sharded-job[]
public class ReportJob implements Job {

	@Override
	public void execute(JobExecutionContext context) {
		ShardContext shard = ShardContext.require(context); // index, total, parameter, fireTime
		reportFor(shard.parameter());
	}
	// end::sharded-job[]

	private void reportFor(String city) {
	}

}
