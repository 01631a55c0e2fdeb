package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;

import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.jobs.JobOperations;
import dev.zkspring.leader.jobs.JobSchedules;

/**
 * With leader groups, every gate of a scheduler shares it, and it runs while any of their elections
 * leads here: a standby no longer keeps one election's triggers from advancing. So a gate whose election
 * does not lead here holds its jobs (Quartz's pause): their triggers keep the fire time they stopped at,
 * and the next grant moves them to the first fire time after the group's last recorded one, so the fire
 * times of a handover gap run late, once, as the single election's standby does. A firing that reaches
 * the gate between the grant and the end of the grant's work waits for that work.
 */
final class JobHold {

	private static final Log logger = LogFactory.getLog(JobHold.class);

	/** How long a firing waits for the grant's work before it is vetoed. */
	static final Duration GRANT_WAIT = Duration.ofSeconds(10);

	private final Scheduler scheduler;

	private final Predicate<JobKey> owns;

	private final Object monitor = new Object();

	/** Whether the jobs are held: from the start and from each revocation until the grant's work releases them. */
	private volatile boolean held = true;

	/** Whether the grant's work is done: firings are decided from then on. */
	private boolean granted;

	JobHold(Scheduler scheduler, Predicate<JobKey> owns) {
		this.scheduler = scheduler;
		this.owns = owns;
	}

	/** Whether this hold keeps the job paused now. */
	boolean holds(JobKey job) {
		return this.held && this.owns.test(job);
	}

	/** At the start and on each revocation: pause the jobs this gate decides. */
	void hold() {
		synchronized (this.monitor) {
			this.granted = false;
			this.held = true;
		}
		for (JobKey job : JobOperations.jobKeys(this.scheduler)) {
			if (this.owns.test(job)) {
				try {
					JobSchedules.pause(this.scheduler, job, true);
				}
				catch (SchedulerException ex) {
					logger.warn("Could not hold " + job + " while this instance does not lead its group: " + ex);
				}
			}
		}
	}

	/** A trigger moved on a grant is stored anew, not paused: keep it held until {@link #release}. */
	void keepHeld(Trigger trigger) throws SchedulerException {
		this.scheduler.pauseTrigger(trigger.getKey());
	}

	/**
	 * On a grant, after the triggers were moved: resume the jobs, but those paused by an operator or the
	 * configuration ({@code jobs} decides), then let waiting firings be decided.
	 */
	void release(@Nullable JobOperations jobs) {
		this.held = false;
		try {
			if (jobs != null) {
				jobs.granted(this.scheduler, this.owns);
				return;
			}
			for (JobKey job : JobOperations.jobKeys(this.scheduler)) {
				if (this.owns.test(job)) {
					try {
						JobSchedules.pause(this.scheduler, job, false);
					}
					catch (SchedulerException ex) {
						logger.warn("Could not resume " + job + " on gaining leadership of its group: " + ex);
					}
				}
			}
		}
		finally {
			synchronized (this.monitor) {
				this.granted = !this.held;
				this.monitor.notifyAll();
			}
		}
	}

	/**
	 * For the veto: wait while the election leads but the grant's work is under way (bounded), then
	 * whether the firing may be decided: not when the work did not end in time, nor when the trigger is
	 * paused after it (an operator's pause the grant applied).
	 */
	boolean awaitGrant(ZkLeaderElection election, Trigger trigger) {
		boolean waited = false;
		long deadline = System.nanoTime() + GRANT_WAIT.toNanos();
		synchronized (this.monitor) {
			while (!this.granted && election.isLeader()) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					logger.warn("Vetoed " + trigger.getKey() + ": the grant of " + election.latchPath() + " did not end within "
							+ GRANT_WAIT);
					return false;
				}
				waited = true;
				try {
					this.monitor.wait(Math.max(1, left / 1_000_000));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return false;
				}
			}
		}
		if (!waited) {
			return true;
		}
		try {
			return this.scheduler.getTriggerState(trigger.getKey()) != Trigger.TriggerState.PAUSED;
		}
		catch (SchedulerException ex) {
			return false;
		}
	}

}
