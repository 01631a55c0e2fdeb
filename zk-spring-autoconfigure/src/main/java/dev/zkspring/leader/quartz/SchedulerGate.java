package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.quartz.InterruptableJob;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;

import dev.zkspring.leader.LeadershipGrantedEvent;
import dev.zkspring.leader.LeadershipListener;
import dev.zkspring.leader.LeadershipRevokedEvent;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.jobs.JobOperations.GrantWork;
import dev.zkspring.leader.jobs.JobOperations;
import dev.zkspring.leader.term.Drainable;
import dev.zkspring.leader.term.FireTimes;
import dev.zkspring.leader.term.LeaderRecords;

/**
 * Ties one Quartz {@link Scheduler} to the election: started on grant, in standby on revocation (and
 * running {@link InterruptableJob}s interrupted under {@link RevokePolicy#INTERRUPT}), drained before
 * this instance hands leadership over, and guarded by a trigger listener that vetoes any firing
 * while this instance does not lead.
 * Over 300 lines because the grant's work, the delayed start and the revocation decide under one lock
 * (the gates' shared {@code leading} set) whether the scheduler runs; apart, that lock would span files.
 */
public final class SchedulerGate implements LeadershipListener, Drainable {

	private static final Log logger = LogFactory.getLog(SchedulerGate.class);

	/** Quartz's default misfire threshold: how late a leader may fire, and how far a recorded fire time may lie ahead. */
	public static final Duration MISFIRE_THRESHOLD = FireTimes.MISFIRE_THRESHOLD;

	private final Scheduler scheduler;

	private final ZkLeaderElection election;

	private final RevokePolicy onRevoke;

	/** The records each election keeps beside its latch node, each write fenced by its leadership. */
	private final Function<ZkLeaderElection, LeaderRecords> recordsOf;

	private final RuntimeTriggers runtimeTriggers;

	private final GatedExecutions executions;

	/** The jobs of this gate's election: all of them, or, with leader groups, those of one group. */
	private final Predicate<JobKey> owns;

	/** The gates of this scheduler whose election leads now, shared by them: in standby when empty. */
	private final Set<SchedulerGate> leading;

	/** The gate of the application's own election: it alone records triggers scheduled at runtime. */
	private final boolean primary;

	/** With leader groups: holds this gate's jobs while its election does not lead here; {@code null} without. */
	private final @Nullable JobHold hold;

	/** The job operations told of each grant, {@code null} without them. */
	private volatile @Nullable JobOperations jobs;

	/** {@code spring.quartz.startup-delay}: how long after a grant the scheduler starts. */
	private Duration startupDelay = Duration.ZERO;

	/** The epoch of the grant this gate starts (or started) the scheduler for; -1 while not granted. */
	private long grantedEpoch = -1;

	private @Nullable ScheduledExecutorService delayedStarts;

	private volatile @Nullable ScheduledFuture<?> pendingStart;

	/**
	 * The gate of a scheduler with one election.
	 * @param recordsOf the records of an election, each write fenced by its leadership
	 */
	public SchedulerGate(Scheduler scheduler, ZkLeaderElection election,
			Function<ZkLeaderElection, LeaderRecords> recordsOf, RevokePolicy onRevoke) {
		this(scheduler, election, recordsOf, onRevoke, ALL, new HashSet<>(), true);
	}

	/** The jobs of the only gate of a scheduler: all of them. */
	static final Predicate<JobKey> ALL = (job) -> true;

	/**
	 * A gate for the jobs one election owns on a scheduler other gates share.
	 * @param recordsOf the records of an election, each write fenced by its leadership
	 * @param owns the jobs this gate decides; the other gates abstain from them
	 * @param leading shared by the scheduler's gates
	 * @param primary whether this is the gate of the application's own election
	 */
	public SchedulerGate(Scheduler scheduler, ZkLeaderElection election,
			Function<ZkLeaderElection, LeaderRecords> recordsOf, RevokePolicy onRevoke, Predicate<JobKey> owns,
			Set<SchedulerGate> leading, boolean primary) {
		this.scheduler = scheduler;
		this.election = election;
		this.recordsOf = recordsOf;
		this.onRevoke = onRevoke;
		this.owns = owns;
		this.leading = leading;
		this.primary = primary;
		this.hold = (primary && owns == ALL) ? null : new JobHold(scheduler, owns);
		this.runtimeTriggers = new RuntimeTriggers(scheduler, election, recordsOf, (job) -> {
			JobOperations operations = this.jobs;
			return (operations != null) ? operations.electionOf(job) : election;
		});
		this.executions = new GatedExecutions(records().inFlightJobs(), primary ? "" : "-" + election.latchPath());
	}

	/**
	 * Honour Boot's {@code spring.quartz.startup-delay} under leader gating: each grant starts the scheduler that
	 * long after it (the grant always comes after the application's startup, so it counts from the later of
	 * the two). Call before {@link #attach()}.
	 */
	public void startupDelay(Duration delay) {
		this.startupDelay = delay.isNegative() ? Duration.ZERO : delay;
	}

	/** Install the veto (and hold the jobs), then listen for leadership; call before anything can start the scheduler. */
	public void attach() throws SchedulerException {
		this.executions.attach(this.scheduler.getListenerManager());
		if (this.hold != null) {
			this.hold.hold();
		}
		this.scheduler.getListenerManager().addTriggerListener(new LeadershipTriggerListener(this.election, this.recordsOf,
				this.executions, this.owns, this.primary ? "" : "-" + this.election.latchPath(), this.hold));
		if (this.primary) {
			this.scheduler.getListenerManager().addSchedulerListener(this.runtimeTriggers);
		}
		this.election.addListener(this);
	}

	/** Take the scheduler's jobs under operation (configured schedules, requests, history); before it starts. */
	public void operate(JobOperations operations) throws SchedulerException {
		operations.attach(this.scheduler);
		this.jobs = operations;
	}

	/** Tell the job operations another gate of this scheduler took under operation of each grant. */
	public void operatedBy(JobOperations operations) {
		this.jobs = operations;
	}

	/** Whether this gate holds the job now (leader groups: its election does not lead here). */
	public boolean holds(JobKey job) {
		return this.hold != null && this.hold.holds(job);
	}

	public void detach() {
		this.election.removeListener(this);
		cancelPendingStart();
		ScheduledExecutorService starts = this.delayedStarts;
		if (starts != null) {
			starts.shutdownNow();
		}
	}

	@Override
	public void leadershipGranted(LeadershipGrantedEvent event) {
		try {
			if (!this.scheduler.isShutdown()) {
				GrantWork work = () -> {
					JobOperations operations = this.jobs;
					GrantWork move = () -> FireTimeResume.resume(this.scheduler, this.election, this.recordsOf, this.owns,
							this.hold);
					if (operations != null) {
						operations.movingTriggers(move);
					}
					else {
						move.run();
					}
					recoverInterruptedJobs(event.getEpoch());
					if (this.hold != null) {
						this.hold.release(operations);
					}
					else if (operations != null) {
						operations.granted(this.scheduler, this.owns);
					}
				};
				if (this.primary) {
					this.runtimeTriggers.granting(work);
				}
				else {
					work.run();
				}
				startAfterTheDelay(event.getEpoch());
			}
		}
		catch (SchedulerException ex) {
			logger.error("Could not start Quartz scheduler '" + name() + "' on gaining leadership", ex);
		}
	}

	private void startAfterTheDelay(long epoch) throws SchedulerException {
		synchronized (this.leading) {
			this.grantedEpoch = epoch;
		}
		if (this.startupDelay.isZero()) {
			start(epoch);
			return;
		}
		logger.info("Quartz scheduler '" + name() + "' starts in " + this.startupDelay.toMillis() + " ms "
				+ "(spring.quartz.startup-delay): this instance leads " + this.election.latchPath() + " (epoch " + epoch + ")");
		this.pendingStart = delayedStarts().schedule(() -> {
			try {
				start(epoch);
			}
			catch (SchedulerException ex) {
				logger.error("Could not start Quartz scheduler '" + name() + "' after spring.quartz.startup-delay", ex);
			}
		}, this.startupDelay.toNanos(), TimeUnit.NANOSECONDS);
	}

	/** Start, unless the grant was revoked meanwhile: checked under the lock the revocation takes. */
	private void start(long epoch) throws SchedulerException {
		synchronized (this.leading) {
			if (this.grantedEpoch != epoch || this.scheduler.isShutdown()) {
				return;
			}
			this.leading.add(this);
			this.scheduler.start();
		}
		logger.info("Quartz scheduler '" + name() + "' started: this instance leads " + this.election.latchPath()
				+ " (epoch " + epoch + ")");
	}

	private synchronized ScheduledExecutorService delayedStarts() {
		if (this.delayedStarts == null) {
			this.delayedStarts = Executors.newSingleThreadScheduledExecutor((task) -> {
				Thread thread = new Thread(task, "zk-quartz-startup-delay");
				thread.setDaemon(true);
				return thread;
			});
		}
		return this.delayedStarts;
	}

	private void cancelPendingStart() {
		ScheduledFuture<?> pending = this.pendingStart;
		if (pending != null) {
			pending.cancel(false);
		}
	}

	@Override
	public void leadershipRevoked(LeadershipRevokedEvent event) {
		try {
			if (this.scheduler.isShutdown()) {
				return;
			}
			cancelPendingStart();
			synchronized (this.leading) {
				this.grantedEpoch = -1;
				this.leading.remove(this);
				if (this.leading.isEmpty()) {
					this.scheduler.standby();
					logger.info("Quartz scheduler '" + name() + "' in standby: leadership of " + this.election.latchPath()
							+ " revoked (" + event.getReason() + ")");
				}
			}
			if (this.hold != null) {
				this.hold.hold();
			}
			if (this.onRevoke == RevokePolicy.INTERRUPT) {
				interruptRunningJobs();
			}
		}
		catch (SchedulerException ex) {
			logger.error("Could not put Quartz scheduler '" + name() + "' in standby", ex);
		}
	}

	@Override
	public boolean awaitDrained(Duration timeout) {
		// the gate's own account: Quartz's running list drops an execution before the trigger listeners hear
		// it completed, and keeps it for good when an application listener throws
		if (!this.executions.awaitNoneRunning(timeout)) {
			logger.warn("Releasing leadership of " + this.election.latchPath() + " while jobs still run after "
					+ timeout + ": " + this.executions.running().stream().map((job) -> job.getJobDetail().getKey()).toList());
			return false;
		}
		return true;
	}

	/** Re-run once each execution of a recovery-requesting job whose leader ended during it, or that never started. */
	private void recoverInterruptedJobs(long epoch) {
		try {
			Set<String> runningHere = this.executions.running().stream()
				.map((execution) -> execution.getFireInstanceId() + "\n" + execution.getJobDetail().getKey())
				.collect(Collectors.toSet());
			records().recoverInFlight(this.scheduler, epoch, runningHere);
		}
		catch (Exception ex) {
			logger.warn("Could not read the executions a previous leader left running in " + this.election.latchPath()
					+ "; jobs requesting recovery are not re-run: " + ex);
		}
	}

	private void interruptRunningJobs() throws SchedulerException {
		for (JobExecutionContext job : this.executions.running()) {
			if (job.getJobInstance() instanceof InterruptableJob) {
				this.scheduler.interrupt(job.getFireInstanceId());
				logger.info("Interrupted " + job.getJobDetail().getKey() + " on losing leadership");
			}
		}
	}

	private String name() {
		try {
			return this.scheduler.getSchedulerName();
		}
		catch (SchedulerException ex) {
			return "?";
		}
	}

	/** The records of this gate's election, each write fenced by its leadership. */
	private LeaderRecords records() {
		return this.recordsOf.apply(this.election);
	}

}
