package dev.zkspring.reliability.workload;

import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.quartz.QuartzJobBean;

import dev.zkspring.leader.LeaderJobs;

/** The leader-gated Quartz job (cron, every second): journals its start and end with epoch and fire time. */
@DisallowConcurrentExecution
public class TickJob extends QuartzJobBean {

	private Journal journal;

	@Autowired
	void setJournal(Journal journal) {
		this.journal = journal;
	}

	@Override
	protected void executeInternal(JobExecutionContext context) {
		long epoch = LeaderJobs.epoch(context);
		long fireTime = context.getScheduledFireTime().getTime();
		this.journal.line("JS", epoch, fireTime);
		try {
			Thread.sleep(150); // stands for the job's work
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.journal.line("JE", epoch, fireTime);
		}
	}

}
