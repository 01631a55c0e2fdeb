package dev.zkspring.leader.shard;

import org.quartz.Job;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.Scheduler;

import dev.zkspring.leader.LeaderJobs;

/**
 * What a sharded job's firing runs on the leader that fired it: the dispatch of that fire time, with the
 * settings in force when it fired. A recovery of a dispatch that its leader left unfinished dispatches the
 * original fire time, which is written once.
 */
final class ShardDispatchJob implements Job {

	private final ShardSettings.Shards shards;

	private final Dispatch dispatch;

	/** Writes one fire time's dispatch node. */
	interface Dispatch {

		void dispatch(JobExecutionContext context, String trigger, long fireTime, ShardSettings.Shards shards) throws Exception;

	}

	ShardDispatchJob(ShardSettings.Shards shards, Dispatch dispatch) {
		this.shards = shards;
		this.dispatch = dispatch;
	}

	@Override
	public void execute(JobExecutionContext context) throws JobExecutionException {
		String trigger = context.getTrigger().getKey().toString();
		long fireTime = (context.getScheduledFireTime() != null) ? context.getScheduledFireTime().getTime()
				: System.currentTimeMillis();
		JobDataMap data = context.getMergedJobDataMap();
		// a one-shot trigger of the recovery group stands for a lost or missed fire time: Quartz's JDBC store marks
		// it recovering, its in-memory store never does, nor does the next leader for a fire time never started
		boolean standsForAnother = context.isRecovering()
				|| Scheduler.DEFAULT_RECOVERY_GROUP.equals(context.getTrigger().getKey().getGroup());
		if (standsForAnother && data.containsKey(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_FIRETIME_IN_MILLISECONDS)) {
			trigger = data.getString(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_GROUP) + "."
					+ data.getString(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_NAME);
			// the fire time the lost dispatch stood for is the scheduled one (the actual firing is a few ms later):
			// under any other name the recovery would write a second dispatch and run every shard again
			String scheduled = data.getString(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_SCHEDULED_FIRETIME_IN_MILLISECONDS);
			fireTime = Long.parseLong((scheduled != null) ? scheduled
					: data.getString(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_FIRETIME_IN_MILLISECONDS));
		}
		try {
			// a deposed leader writes no dispatch (the fire time was fenced already; this spares a stale owner list)
			LeaderJobs.assertLeading(context);
			this.dispatch.dispatch(context, trigger, fireTime, this.shards);
		}
		catch (Exception ex) {
			throw new JobExecutionException("Could not dispatch the shards of " + context.getJobDetail().getKey()
					+ " for fire time " + fireTime, ex);
		}
	}

}
