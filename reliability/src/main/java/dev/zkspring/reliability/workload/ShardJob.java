package dev.zkspring.reliability.workload;

import org.quartz.JobExecutionContext;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.quartz.QuartzJobBean;

import dev.zkspring.leader.ShardContext;

/**
 * The sharded jobs' code (ShardWork): each shard's run journals its start and end with the job, fire
 * time, shard index, total, parameter, whether it is a re-run after its owner was lost
 * ({@code isRecovering()}), and the dispatch node's fence as the run found it (ShardFence).
 */
public class ShardJob extends QuartzJobBean {

	private Journal journal;

	private ShardFence fence;

	@Autowired
	void setJournal(Journal journal) {
		this.journal = journal;
	}

	@Autowired
	void setFence(ShardFence fence) {
		this.fence = fence;
	}

	@Override
	protected void executeInternal(JobExecutionContext context) {
		ShardContext shard = ShardContext.require(context);
		String job = context.getJobDetail().getKey().getName();
		String parameter = shard.parameter().isEmpty() ? "-" : shard.parameter();
		// epoch of the dispatching leadership, version of the dispatch node, owner it names, this instance's id
		String fenced = this.fence.describe(context.getJobDetail().getKey(), shard.fireTime(), shard.index());
		this.journal.line("SS", job, shard.fireTime(), shard.index(), shard.total(), parameter, context.isRecovering(), fenced);
		try {
			Thread.sleep(100); // stands for the shard's work
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.journal.line("SE", job, shard.fireTime(), shard.index(), context.isRecovering());
		}
	}

}
