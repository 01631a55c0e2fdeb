package dev.zkspring.leader.quartz;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.quartz.listeners.SchedulerListenerSupport;

import org.springframework.util.ClassUtils;

import dev.zkspring.client.OwnedPaths;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.jobs.JobOperations.GrantWork;
import dev.zkspring.leader.term.LeaderRecords;

/**
 * Triggers scheduled at runtime on the leader ({@code scheduler.scheduleJob(...)} after the scheduler
 * first started), mirrored into ZooKeeper ({@code {latch}.triggers/{trigger key}}, a {@link TriggerRecord})
 * by writes fenced by the leadership, so a successor schedules them again on its grant. Unscheduling or
 * deleting the job, or the trigger's completion, removes the record. Triggers the scheduler had when it
 * first started, one-shot triggers due at once ({@code triggerJob}) and recoveries are not mirrored; a
 * trigger that cannot be (another type, data that is not a string, boolean or number), or one scheduled
 * on an instance that does not lead, is named in a warning: it does not survive a failover.
 */
final class RuntimeTriggers extends SchedulerListenerSupport {

	private static final Log logger = LogFactory.getLog(RuntimeTriggers.class);

	/** A trigger whose last fire time is at most this far ahead is a one-shot run now, as {@code triggerJob}. */
	private static final long ONE_SHOT_SLACK_MILLIS = 1_000;

	private static final boolean JSON_PRESENT = ClassUtils.isPresent("tools.jackson.databind.json.JsonMapper",
			RuntimeTriggers.class.getClassLoader());

	private final Scheduler scheduler;

	private final ZkLeaderElection election;

	private final String root;

	/** The triggers and jobs the scheduler had when it first started; {@code null} before. */
	private volatile @Nullable Set<TriggerKey> startupTriggers;

	private volatile Set<JobKey> startupJobs = Set.of();

	/** Triggers of this scheduler with a record: mirrored here, or scheduled from a record. */
	private final Set<TriggerKey> mirrored = ConcurrentHashMap.newKeySet();

	/** The thread doing a grant's scheduling work, which is not mirrored back. */
	private volatile @Nullable Thread restoring;

	private final TriggerRestore restore;

	/** The election whose leader runs each job (with leader groups, its group's), which fenced its fire times. */
	private final Function<JobKey, ZkLeaderElection> electionOf;

	/** The records each election keeps beside its latch node, each write fenced by its leadership. */
	private final Function<ZkLeaderElection, LeaderRecords> recordsOf;

	RuntimeTriggers(Scheduler scheduler, ZkLeaderElection election, Function<ZkLeaderElection, LeaderRecords> recordsOf) {
		this(scheduler, election, recordsOf, (job) -> election);
	}

	RuntimeTriggers(Scheduler scheduler, ZkLeaderElection election, Function<ZkLeaderElection, LeaderRecords> recordsOf,
			Function<JobKey, ZkLeaderElection> electionOf) {
		this.recordsOf = recordsOf;
		this.scheduler = scheduler;
		this.election = election;
		this.electionOf = electionOf;
		this.root = election.latchPath() + ".triggers";
		this.restore = new TriggerRestore(scheduler, election, recordsOf, this.root, this.mirrored, JSON_PRESENT);
	}

	@Override
	public void schedulerStarted() {
		captureStartup(null);
	}

	/** Note what the scheduler has at its first start, or once the election runs (on a standby), but one trigger. */
	private synchronized void captureStartup(@Nullable TriggerKey except) {
		if (this.startupTriggers == null) {
			try {
				this.startupJobs = Set.copyOf(this.scheduler.getJobKeys(GroupMatcher.anyJobGroup()));
				Set<TriggerKey> triggers = new HashSet<>(this.scheduler.getTriggerKeys(GroupMatcher.anyTriggerGroup()));
				triggers.remove(except);
				// a grant schedules recoveries before the scheduler first starts: they are no startup triggers
				triggers.removeIf((key) -> Scheduler.DEFAULT_RECOVERY_GROUP.equals(key.getGroup()));
				this.startupTriggers = Set.copyOf(triggers);
			}
			catch (SchedulerException ex) {
				this.startupTriggers = Set.of();
			}
		}
	}

	@Override
	public void jobScheduled(Trigger trigger) {
		TriggerKey key = trigger.getKey();
		if (this.restoring == Thread.currentThread() || (!this.mirrored.contains(key) && !scheduledAtRuntime(trigger))) {
			return;
		}
		String lost = "; it lives in this instance's memory only and will not survive a failover of "
				+ this.election.latchPath();
		if (!this.election.isLeader()) {
			logger.warn("Trigger " + key + " of job " + trigger.getJobKey() + " was scheduled at runtime on an instance "
					+ "that does not lead: it runs only if this instance leads, and is not mirrored to ZooKeeper" + lost
					+ ". Schedule it on the leader, or define it at startup on every instance (a Trigger bean).");
			return;
		}
		if (!JSON_PRESENT) {
			logger.warn("Trigger " + key + " of job " + trigger.getJobKey() + " was scheduled at runtime and is not "
					+ "mirrored to ZooKeeper: Jackson (tools.jackson.core:jackson-databind) is not on the classpath" + lost);
			return;
		}
		try {
			JobKey jobKey = trigger.getJobKey();
			JobDetail job = this.startupJobs.contains(jobKey) ? null : this.scheduler.getJobDetail(jobKey);
			byte[] data = TriggerRecord.encode(trigger, job);
			CuratorFramework client = records().client();
			OwnedPaths.ensure(client, this.root);
			String node = node(key);
			boolean written;
			try {
				written = records().commitFenced(List.of(client.transactionOp().setData().forPath(node, data)));
			}
			catch (KeeperException.NoNodeException ex) {
				written = records().commitFenced(List.of(client.transactionOp().create().forPath(node, data)));
			}
			if (!written) {
				logger.warn("Trigger " + key + " was scheduled at runtime while this instance's leadership ended: it "
						+ "is not mirrored to ZooKeeper" + lost);
				return;
			}
			this.mirrored.add(key);
		}
		catch (IllegalArgumentException ex) {
			logger.warn("Trigger " + key + " of job " + trigger.getJobKey() + " was scheduled at runtime and cannot "
					+ "be mirrored to ZooKeeper (" + ex.getMessage() + ")" + lost
					+ ". Use a cron or simple trigger with string, boolean or number data, or define it at startup.");
		}
		catch (Exception ex) {
			logger.warn("Could not mirror trigger " + key + " to " + this.root + lost + ": " + ex);
		}
	}

	@Override
	public void jobUnscheduled(TriggerKey key) {
		// rescheduleJob tells of an unscheduling too, the new trigger already in place: jobScheduled follows.
		// On a standby that has noted nothing yet, note now, so a rescheduled startup trigger stays one
		if (this.startupTriggers == null && this.election.isRunning()) {
			captureStartup(null);
		}
		if (!exists(key)) {
			gone(key, this.election);
		}
	}

	@Override
	public void triggerFinalized(Trigger trigger) {
		// a one-shot run of a grouped job recorded its fire time under its group's leadership: forget it under that
		gone(trigger.getKey(), this.electionOf.apply(trigger.getJobKey()));
	}

	/**
	 * A trigger will not fire again here: drop its records unless every instance has it from startup.
	 * @param runsIt the election whose leader fired the trigger's job, whose fence deletes its fire-time record
	 */
	private void gone(TriggerKey key, ZkLeaderElection runsIt) {
		boolean mirroredHere = this.mirrored.contains(key);
		if (mirroredHere) {
			remove(key);
		}
		Set<TriggerKey> startup = this.startupTriggers;
		// a startup trigger's record tells a successor, whose own copy never advanced, that it is done
		boolean everyInstanceHasIt = !mirroredHere && (startup == null || startup.contains(key));
		if (!everyInstanceHasIt && runsIt.isLeader()) {
			this.recordsOf.apply(runsIt).forgetFireTime(key.toString());
		}
	}

	/**
	 * On grant, before the scheduler starts: restore the recorded triggers, then do the grant's other
	 * scheduling work (fire-time moves, recoveries), none of it mirrored back as runtime scheduling.
	 */
	void granting(GrantWork work) throws SchedulerException {
		this.restoring = Thread.currentThread();
		try {
			this.restore.run();
			work.run();
		}
		finally {
			this.restoring = null;
		}
	}

	private void remove(TriggerKey key) {
		this.mirrored.remove(key);
		try {
			CuratorFramework client = records().client();
			if (!records().commitFenced(List.of(client.transactionOp().delete().forPath(node(key))))) {
				logger.warn("Trigger " + key + " was removed while this instance does not lead: its record in " + this.root
						+ " stays and the next leader schedules it again. Unschedule it on the leader.");
			}
		}
		catch (KeeperException.NoNodeException ex) {
			// already gone
		}
		catch (Exception ex) {
			logger.warn("Could not remove the record of trigger " + key + " from " + this.root
					+ "; the next leader may schedule it again: " + ex);
		}
	}

	private boolean scheduledAtRuntime(Trigger trigger) {
		if (this.startupTriggers == null && this.election.isRunning()) {
			// a standby's scheduler starts only when it leads: what it had when the election started counts
			captureStartup(trigger.getKey());
		}
		Set<TriggerKey> startup = this.startupTriggers;
		if (startup == null || startup.contains(trigger.getKey())
				|| Scheduler.DEFAULT_RECOVERY_GROUP.equals(trigger.getKey().getGroup())) {
			return false;
		}
		Date lastFire = trigger.getFinalFireTime();
		return lastFire == null || lastFire.getTime() > System.currentTimeMillis() + ONE_SHOT_SLACK_MILLIS;
	}

	private boolean exists(TriggerKey key) {
		try {
			return this.scheduler.checkExists(key);
		}
		catch (SchedulerException ex) {
			return false;
		}
	}

	private String node(TriggerKey key) {
		return this.root + "/" + URLEncoder.encode(key.toString(), StandardCharsets.UTF_8);
	}

	/** The records of this mirror's election, each write fenced by its leadership. */
	private LeaderRecords records() {
		return this.recordsOf.apply(this.election);
	}

}
