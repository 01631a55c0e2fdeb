package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobKey;
import org.quartz.JobListener;
import org.quartz.ListenerManager;
import org.quartz.Matcher;
import org.quartz.SchedulerException;
import org.quartz.core.JobExecutionProcessException;
import org.quartz.listeners.SchedulerListenerSupport;

import dev.zkspring.leader.term.InFlightJobs;

/**
 * The executions the gate let start, from its decision until they end, kept by the gate itself rather
 * than read from Quartz's running list: Quartz drops an execution from that list before the trigger
 * listeners hear it completed, and keeps it there for good when an application listener throws. An
 * execution ends on the first of: its job listener callbacks (this listener runs before the
 * application's), the trigger listener's completion, or Quartz's report that a listener or the job
 * threw (after which Quartz skips the callbacks that would have told).
 */
final class GatedExecutions extends SchedulerListenerSupport implements JobListener {

	private static final Log logger = LogFactory.getLog(GatedExecutions.class);

	private final InFlightJobs inFlight;

	/** By fire instance id: from the gate's decision until the execution ended here. */
	private final Map<String, JobExecutionContext> running = new ConcurrentHashMap<>();

	/** Listeners named in a warning already. */
	private final Set<String> misbehavingListeners = ConcurrentHashMap.newKeySet();

	/** Quartz keeps one job listener per name: each gate of a scheduler shared by leader groups has its own. */
	private final String name;

	GatedExecutions(InFlightJobs inFlight) {
		this(inFlight, "");
	}

	GatedExecutions(InFlightJobs inFlight, String nameSuffix) {
		this.inFlight = inFlight;
		this.name = "zk-leader-gate-executions" + nameSuffix;
	}

	/** Listen to Quartz: as the first job listener, so no application job listener can keep us from it. */
	void attach(ListenerManager listeners) throws SchedulerException {
		List<JobListener> others = listeners.getJobListeners();
		Map<String, List<Matcher<JobKey>>> matchers = new HashMap<>();
		for (JobListener other : others) {
			matchers.put(other.getName(), listeners.getJobListenerMatchers(other.getName()));
			listeners.removeJobListener(other.getName());
		}
		listeners.addJobListener(this);
		for (JobListener other : others) {
			List<Matcher<JobKey>> own = matchers.get(other.getName());
			if (own != null) {
				listeners.addJobListener(other, own);
			}
			else {
				listeners.addJobListener(other);
			}
		}
		listeners.addSchedulerListener(this);
	}

	/** The gate is deciding whether the execution starts: from now on a drain waits for it. */
	void deciding(JobExecutionContext context) {
		this.running.put(context.getFireInstanceId(), context);
	}

	/** The gate vetoed the execution: nothing of it runs, and its records were dealt with. */
	void vetoed(JobExecutionContext context) {
		this.running.remove(context.getFireInstanceId(), context);
	}

	/** The execution ended here (or will not start): its in-flight record goes, once. */
	void ended(JobExecutionContext context) {
		if (this.running.remove(context.getFireInstanceId(), context)) {
			this.inFlight.completed(context);
		}
	}

	/** The executions the gate let start that have not ended yet. */
	List<JobExecutionContext> running() {
		return List.copyOf(this.running.values());
	}

	/** Wait until no execution the gate let start still runs; whether none does. */
	boolean awaitNoneRunning(long deadlineNanos) {
		while (!this.running.isEmpty() && System.nanoTime() - deadlineNanos < 0) {
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
		}
		return this.running.isEmpty();
	}

	boolean awaitNoneRunning(Duration timeout) {
		return awaitNoneRunning(System.nanoTime() + timeout.toNanos());
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public void jobToBeExecuted(JobExecutionContext context) {
	}

	@Override
	public void jobExecutionVetoed(JobExecutionContext context) {
		// another trigger listener vetoed after the gate allowed it
		ended(context);
	}

	@Override
	public void jobWasExecuted(JobExecutionContext context, JobExecutionException jobException) {
		ended(context);
	}

	@Override
	public void schedulerError(String msg, SchedulerException cause) {
		if (!(cause instanceof JobExecutionProcessException failure) || failure.getJobExecutionContext() == null) {
			return;
		}
		JobExecutionContext context = failure.getJobExecutionContext();
		// the job threw (the listeners are still told), or a listener threw (Quartz skips the rest): either way
		// the job's own code is done with this firing
		ended(context);
		String message = String.valueOf(failure.getMessage());
		int quote = message.indexOf('\'');
		int end = (quote >= 0) ? message.indexOf('\'', quote + 1) : -1;
		if (end > quote && (message.startsWith("JobListener '") || message.startsWith("TriggerListener '"))) {
			String listener = message.substring(0, end + 1);
			if (this.misbehavingListeners.add(listener)) {
				logger.warn(listener + " threw while Quartz ran " + context.getJobDetail().getKey() + ", so Quartz skipped "
						+ "the callbacks after it: the leader gate ended the execution itself (its in-flight record is "
						+ "deleted, a handover does not wait for it). Logged once per listener; fix the listener.");
			}
		}
	}

}
