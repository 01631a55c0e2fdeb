package dev.zkspring.leader.quartz;

import java.util.Date;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;

import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.term.LeaderRecords;

/**
 * On a grant, where each of the gate's triggers resumes: after the last fire time any leader of the
 * election started, as recorded in ZooKeeper beside its latch node.
 */
final class FireTimeResume {

	private static final Log logger = LogFactory.getLog(SchedulerGate.class);

	private FireTimeResume() {
	}

	/**
	 * Before this leader starts the scheduler (or, with leader groups, releases its held jobs): move each
	 * trigger to the first fire time after the last one a leader of the group started, so no fire time runs
	 * twice; fire times after it (the leaderless gap) run late, or as the trigger's misfire instruction says.
	 */
	static void resume(Scheduler scheduler, ZkLeaderElection election,
			Function<ZkLeaderElection, LeaderRecords> recordsOf, Predicate<JobKey> owns, @Nullable JobHold hold)
			throws SchedulerException {
		for (TriggerKey key : scheduler.getTriggerKeys(GroupMatcher.anyTriggerGroup())) {
			Trigger trigger = scheduler.getTrigger(key);
			if (trigger == null || !owns.test(trigger.getJobKey())) {
				continue;
			}
			OptionalLong last;
			try {
				last = recordsOf.apply(election).lastFireTime(key.toString());
			}
			catch (Exception ex) {
				logger.warn("Could not read the last fire time of " + key + "; it resumes from its own schedule: " + ex);
				continue;
			}
			Date next = trigger.getNextFireTime();
			if (last.isEmpty() || next == null) {
				continue;
			}
			Date resumeAt = trigger.getFireTimeAfter(new Date(last.getAsLong()));
			// a held trigger stopped where this instance last led, or vetoed here: it may lie before the
			// fire times of the handover gap, which no leader started; the single election's standby keeps it there
			if ((hold != null) ? next.equals(resumeAt) : next.getTime() > last.getAsLong()) {
				continue;
			}
			if (beyondSchedule(trigger, last.getAsLong())) {
				logger.warn("Ignored the fire-time record " + recordsOf.apply(election).fireTimeNode(key.toString())
						+ ": it lies beyond the next fire time of trigger " + key + " plus the misfire threshold ("
						+ SchedulerGate.MISFIRE_THRESHOLD + "), so no leader of this group wrote it; the trigger keeps its own "
						+ "schedule. Delete the znode.");
				continue;
			}
			Runnable hook = recordsOf.apply(election).beforeTriggerMove;
			if (hook != null) {
				hook.run();
			}
			if (resumeAt == null) {
				scheduler.unscheduleJob(key);
			}
			else {
				Trigger moved = trigger.getTriggerBuilder().startAt(resumeAt).build();
				scheduler.rescheduleJob(key, moved);
				if (hold != null) {
					hold.keepHeld(moved);
				}
			}
			logger.info("Trigger " + key + " resumes after " + new Date(last.getAsLong())
					+ ", the last fire time a leader started");
		}
	}

	/**
	 * Whether a recorded fire time lies beyond the trigger's next fire time from now plus the misfire
	 * threshold: a leader records a fire time when it fires, so no leader wrote it (clocks differ by less).
	 */
	private static boolean beyondSchedule(Trigger trigger, long recorded) {
		long now = System.currentTimeMillis();
		Date next = trigger.getFireTimeAfter(new Date(now));
		long bound = ((next != null) ? Math.max(next.getTime(), now) : now) + SchedulerGate.MISFIRE_THRESHOLD.toMillis();
		return recorded > bound;
	}

}
