package dev.zkspring.leader;

import java.util.Date;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.quartz.JobExecutionContext;
import org.quartz.Trigger;
import org.quartz.Trigger.CompletedExecutionInstruction;
import org.quartz.TriggerListener;

/**
 * The last line of defence: vetoes every firing while this instance does not lead at that moment
 * (confirmed leadership and a valid session lease), whatever state the scheduler is in, and hands the
 * epoch to each allowed execution.
 */
final class LeadershipTriggerListener implements TriggerListener {

	private static final Log logger = LogFactory.getLog(LeadershipTriggerListener.class);

	private final ZkLeaderElection election;

	private final GatedExecutions executions;

	LeadershipTriggerListener(ZkLeaderElection election) {
		this(election, new GatedExecutions(election.records().inFlightJobs()));
	}

	LeadershipTriggerListener(ZkLeaderElection election, GatedExecutions executions) {
		this.election = election;
		this.executions = executions;
	}

	@Override
	public String getName() {
		return "zk-leader-gate";
	}

	@Override
	public void triggerFired(Trigger trigger, JobExecutionContext context) {
	}

	@Override
	public boolean vetoJobExecution(Trigger trigger, JobExecutionContext context) {
		// from here on a drain waits for this firing: decided, then ended
		this.executions.deciding(context);
		Date fireTime = context.getScheduledFireTime();
		long epoch = (fireTime != null) ? this.election.records().startFiring(trigger.getKey().toString(), fireTime.getTime(), context)
				: this.election.epoch();
		if (epoch == 0) {
			this.executions.vetoed(context);
			this.election.firingVetoed();
			logger.debug("Vetoed " + trigger.getKey() + ": this instance does not lead " + this.election.latchPath());
			return true;
		}
		context.getMergedJobDataMap().put(LeaderJobs.EPOCH_KEY, epoch);
		context.getMergedJobDataMap().put(LeaderJobs.ELECTION_KEY, this.election);
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

}
