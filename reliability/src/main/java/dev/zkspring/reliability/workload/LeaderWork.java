package dev.zkspring.reliability.workload;

import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.scheduling.annotation.Scheduled;

import dev.zkspring.leader.LeaderOnly;
import dev.zkspring.leader.LeadershipGrantedEvent;
import dev.zkspring.leader.LeadershipRevokedEvent;
import dev.zkspring.leader.ZkLeaderElection;

/** The leader's work: the cron job's beans, a {@code @LeaderOnly} scheduled task, and leadership journaled. */
@Configuration(proxyBeanMethods = false)
public class LeaderWork {

	private final Journal journal;

	private final ZkLeaderElection election;

	LeaderWork(Journal journal, ZkLeaderElection election) {
		this.journal = journal;
		this.election = election;
	}

	@Bean
	static JobDetail tickJob() {
		return JobBuilder.newJob(TickJob.class).withIdentity("tick").storeDurably().build();
	}

	@Bean
	static Trigger tickTrigger(JobDetail tickJob) {
		// cron fire times are the same instants on every instance: a fire time run twice is visible
		return TriggerBuilder.newTrigger()
			.forJob(tickJob)
			.withIdentity("tick")
			.withSchedule(CronScheduleBuilder.cronSchedule("* * * * * ?"))
			.build();
	}

	@Scheduled(fixedDelay = 300)
	@LeaderOnly
	public Object leaderOnlyTask() throws InterruptedException {
		long epoch = this.election.epoch();
		this.journal.line("OS", epoch);
		try {
			Thread.sleep(50);
		}
		finally {
			this.journal.line("OE", epoch);
		}
		return null;
	}

	@EventListener
	void granted(LeadershipGrantedEvent event) {
		this.journal.line("G", event.getEpoch());
	}

	@EventListener
	void revoked(LeadershipRevokedEvent event) {
		this.journal.line("R", event.getEpoch(), event.getReason());
	}

}
