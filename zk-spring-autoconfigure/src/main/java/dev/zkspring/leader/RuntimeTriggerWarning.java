package dev.zkspring.leader;

import java.util.Date;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.jspecify.annotations.Nullable;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.quartz.listeners.SchedulerListenerSupport;

/**
 * Says, once per trigger, that a trigger scheduled at runtime ({@code scheduler.scheduleJob(...)} after
 * the scheduler first started) lives in this instance's memory only: a successor does not know it, so
 * it does not survive failover. Triggers the scheduler had when it first started, one-shot triggers due
 * at once ({@code triggerJob}) and recoveries are not worth the warning. Mirroring runtime triggers into
 * ZooKeeper is not done.
 */
final class RuntimeTriggerWarning extends SchedulerListenerSupport {

	private static final Log logger = LogFactory.getLog(RuntimeTriggerWarning.class);

	/** A trigger whose last fire time is at most this far ahead is a one-shot run now, as {@code triggerJob}. */
	private static final long ONE_SHOT_SLACK_MILLIS = 1_000;

	private final Scheduler scheduler;

	private final String latchPath;

	/** The triggers the scheduler had when it first started (on the first grant); {@code null} before. */
	private volatile @Nullable Set<TriggerKey> definedAtStartup;

	RuntimeTriggerWarning(Scheduler scheduler, String latchPath) {
		this.scheduler = scheduler;
		this.latchPath = latchPath;
	}

	@Override
	public void schedulerStarted() {
		if (this.definedAtStartup == null) {
			try {
				this.definedAtStartup = Set.copyOf(this.scheduler.getTriggerKeys(GroupMatcher.anyTriggerGroup()));
			}
			catch (SchedulerException ex) {
				this.definedAtStartup = Set.of();
			}
		}
	}

	@Override
	public void jobScheduled(Trigger trigger) {
		Set<TriggerKey> startup = this.definedAtStartup;
		// a trigger defined at startup, moved past a recorded fire time on a later grant, is no news
		if (startup == null || startup.contains(trigger.getKey())) {
			return;
		}
		Date lastFire = trigger.getFinalFireTime();
		boolean dueAtOnceOnly = lastFire != null && lastFire.getTime() <= System.currentTimeMillis() + ONE_SHOT_SLACK_MILLIS;
		if (Scheduler.DEFAULT_RECOVERY_GROUP.equals(trigger.getKey().getGroup()) || dueAtOnceOnly) {
			return;
		}
		logger.warn("Trigger " + trigger.getKey() + " of job " + trigger.getJobKey() + " was scheduled at runtime: it "
				+ "lives in this instance's memory only and will not survive a failover of " + this.latchPath
				+ ". Define it at startup on every instance (a Trigger bean), or use Quartz's JDBC job store.");
	}

}
