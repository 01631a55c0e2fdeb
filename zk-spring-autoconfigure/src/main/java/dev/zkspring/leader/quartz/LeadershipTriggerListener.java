package dev.zkspring.leader.quartz;

import java.util.Date;
import java.util.function.Function;
import java.util.function.Predicate;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Trigger;
import org.quartz.Trigger.CompletedExecutionInstruction;
import org.quartz.TriggerListener;

import dev.zkspring.leader.LeaderJobs;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.term.LeaderRecords;

/**
 * The last line of defence: vetoes every firing while this instance does not lead at that moment
 * (confirmed leadership and a valid session lease), whatever state the scheduler is in, and hands the
 * epoch to each allowed execution.
 */
final class LeadershipTriggerListener implements TriggerListener {

	private static final Log logger = LogFactory.getLog(LeadershipTriggerListener.class);

	private final ZkLeaderElection election;

	/** The records each election keeps beside its latch node, each write fenced by its leadership. */
	private final Function<ZkLeaderElection, LeaderRecords> recordsOf;

	private final GatedExecutions executions;

	LeadershipTriggerListener(ZkLeaderElection election, Function<ZkLeaderElection, LeaderRecords> recordsOf) {
		this(election, recordsOf, new GatedExecutions(recordsOf.apply(election).inFlightJobs()));
	}

	private final Predicate<JobKey> owns;

	private final String name;

	/** With leader groups, the gate's hold on its jobs, whose grant a firing waits for; {@code null} without. */
	private final @Nullable JobHold hold;

	LeadershipTriggerListener(ZkLeaderElection election, Function<ZkLeaderElection, LeaderRecords> recordsOf,
			GatedExecutions executions) {
		this(election, recordsOf, executions, (job) -> true, "", null);
	}

	/** A gate deciding only the jobs it owns (those of one leader group) and abstaining from the others. */
	LeadershipTriggerListener(ZkLeaderElection election, Function<ZkLeaderElection, LeaderRecords> recordsOf,
			GatedExecutions executions, Predicate<JobKey> owns, String nameSuffix, @Nullable JobHold hold) {
		this.election = election;
		this.recordsOf = recordsOf;
		this.executions = executions;
		this.owns = owns;
		this.name = "zk-leader-gate" + nameSuffix;
		this.hold = hold;
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public void triggerFired(Trigger trigger, JobExecutionContext context) {
	}

	@Override
	public boolean vetoJobExecution(Trigger trigger, JobExecutionContext context) {
		if (!this.owns.test(trigger.getJobKey())) {
			// another group's gate decides it
			return false;
		}
		// from here on a drain waits for this firing: decided, then ended
		this.executions.deciding(context);
		Runnable hook = records().beforeDecision;
		if (hook != null) {
			hook.run();
		}
		Date fireTime = context.getScheduledFireTime();
		long epoch;
		if (this.hold != null && !this.hold.awaitGrant(this.election, trigger)) {
			epoch = 0;
		}
		else {
			epoch = (fireTime != null) ? records().startFiring(trigger.getKey().toString(), fireTime.getTime(), context)
					: this.election.epoch();
		}
		if (epoch == 0) {
			this.executions.vetoed(context);
			records().firingVetoed();
			logger.debug("Vetoed " + trigger.getKey() + ": this instance does not lead " + this.election.latchPath());
			return true;
		}
		context.getMergedJobDataMap().put(LeaderJobs.EPOCH_KEY, epoch);
		context.getMergedJobDataMap().put(LeaderRecords.ELECTION_KEY, this.election);
		return false;
	}

	@Override
	public void triggerMisfired(Trigger trigger) {
	}

	@Override
	public void triggerComplete(Trigger trigger, JobExecutionContext context,
			CompletedExecutionInstruction instruction) {
		this.executions.ended(context);
	}

	/** The records of this listener's election, each write fenced by its leadership. */
	private LeaderRecords records() {
		return this.recordsOf.apply(this.election);
	}

}
