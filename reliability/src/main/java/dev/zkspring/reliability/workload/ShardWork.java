package dev.zkspring.reliability.workload;

import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobListener;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;

import dev.zkspring.leader.LeaderJobs;
import dev.zkspring.leader.ShardContext;

/**
 * The sharded jobs (issue 40), 4 shards each with shard parameters ({@code zk.quartz.jobs.*} in
 * application.yml): {@code shardTick}, gated by the application's own election, which does not request
 * recovery (a shard of a lost owner is missed, never run twice), and {@code recoverTick}, in the leader
 * group {@code beta}, which does (a lost owner's shards are handed over and run once, late). Each fire time
 * the leader dispatched is journaled ({@code SD}) from a job listener: the dispatch execution ended without
 * an exception, so its dispatch node exists; the shard runs are journaled by {@link ShardJob}.
 */
@Configuration(proxyBeanMethods = false)
public class ShardWork {

	static final String SHARDED = "shardTick";

	static final String RECOVERING = "recoverTick";

	@Bean
	static JobDetail shardTickJob() {
		return JobBuilder.newJob(ShardJob.class).withIdentity(SHARDED).storeDurably().build();
	}

	@Bean
	static Trigger shardTickTrigger() {
		return everyTwoSeconds(SHARDED);
	}

	@Bean
	static JobDetail recoverTickJob() {
		return JobBuilder.newJob(ShardJob.class).withIdentity(RECOVERING).storeDurably().requestRecovery().build();
	}

	@Bean
	static Trigger recoverTickTrigger() {
		return everyTwoSeconds(RECOVERING);
	}

	private static Trigger everyTwoSeconds(String job) {
		return TriggerBuilder.newTrigger()
			.forJob(job)
			.withIdentity(job)
			.withSchedule(CronScheduleBuilder.cronSchedule("*/2 * * * * ?"))
			.build();
	}

	@EventListener(ApplicationReadyEvent.class)
	void listen(ApplicationReadyEvent event) throws SchedulerException {
		Journal journal = event.getApplicationContext().getBean(Journal.class);
		Environment environment = event.getApplicationContext().getEnvironment();
		for (Scheduler scheduler : event.getApplicationContext().getBeansOfType(Scheduler.class).values()) {
			scheduler.getListenerManager().addJobListener(new Dispatches(journal, environment));
		}
	}

	/** Journals {@code SD group epoch fireTime job total requestsRecovery} for every dispatch that ended well. */
	private record Dispatches(Journal journal, Environment environment) implements JobListener {

		@Override
		public String getName() {
			return "reliability-shard-dispatches";
		}

		@Override
		public void jobToBeExecuted(JobExecutionContext context) {
		}

		@Override
		public void jobExecutionVetoed(JobExecutionContext context) {
		}

		@Override
		public void jobWasExecuted(JobExecutionContext context, JobExecutionException exception) {
			String job = context.getJobDetail().getKey().getName();
			if (exception != null || ShardContext.of(context).isPresent() || !(job.equals(SHARDED) || job.equals(RECOVERING))) {
				return;
			}
			String group = job.equals(RECOVERING) ? LeaderWork.BETA : LeaderWork.DEFAULT_GROUP;
			// as the dispatch does: a recovering execution dispatches the fire time it recovers
			long fireTime = context.getScheduledFireTime().getTime();
			JobDataMap data = context.getMergedJobDataMap();
			// (also a missed fire time the next leader runs once: not marked recovering, still a recovery trigger)
			boolean standsForAnother = context.isRecovering()
					|| Scheduler.DEFAULT_RECOVERY_GROUP.equals(context.getTrigger().getKey().getGroup());
			if (standsForAnother && data.containsKey(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_FIRETIME_IN_MILLISECONDS)) {
				String scheduled = data.getString(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_SCHEDULED_FIRETIME_IN_MILLISECONDS);
				fireTime = Long.parseLong((scheduled != null) ? scheduled
						: data.getString(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_FIRETIME_IN_MILLISECONDS));
			}
			this.journal.line("SD", group, LeaderJobs.epoch(context), fireTime, job,
					this.environment.getProperty("zk.quartz.jobs." + job + ".shards", "1"),
					context.getJobDetail().requestsRecovery());
		}

	}

}
