package dev.zkspring.reliability.workload;

import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.quartz.QuartzJobBean;

import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.LeaderJobs;

/**
 * The leader-gated Quartz jobs (cron, every second, one per group): each journals its start and end with
 * its group (as {@code zk.leader.groups} assigns it), epoch, fire time and name.
 */
@DisallowConcurrentExecution
public class TickJob extends QuartzJobBean {

	private Journal journal;

	private ZkLeaderGroups groups;

	@Autowired
	void setJournal(Journal journal) {
		this.journal = journal;
	}

	@Autowired
	void setGroups(ZkLeaderGroups groups) {
		this.groups = groups;
	}

	@Override
	protected void executeInternal(JobExecutionContext context) {
		long epoch = LeaderJobs.epoch(context);
		long fireTime = context.getScheduledFireTime().getTime();
		String job = context.getJobDetail().getKey().getName();
		String group = this.groups.groupOf(job).orElse(LeaderWork.DEFAULT_GROUP);
		this.journal.line("JS", group, epoch, fireTime, job);
		try {
			Thread.sleep(150); // stands for the job's work
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.journal.line("JE", group, epoch, fireTime, job);
		}
	}

}
