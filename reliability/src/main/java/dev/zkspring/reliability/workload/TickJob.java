package dev.zkspring.reliability.workload;

import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.quartz.QuartzJobBean;

import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.LeaderJobs;

/**
 * The leader-gated Quartz jobs (cron, every second, one per group): each journals its start and end with
 * its group (as {@code zk.leader.groups} assigns it), epoch, fire time and name (for a run that recovers a
 * fire time a lost leader recorded, the fire time it recovers).
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
		Object original = context.getMergedJobDataMap().get(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_SCHEDULED_FIRETIME_IN_MILLISECONDS);
		if (context.isRecovering() && original != null) {
			// a fire time its leader recorded and lost, run by the next: journaled as the fire time it stands for,
			// so the checker sees it run twice if it also ran on the lost leader
			fireTime = Long.parseLong(original.toString());
		}
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
