package dev.zkspring.leader.term;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.jspecify.annotations.Nullable;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;

import dev.zkspring.client.SessionLease;

/**
 * What a leader keeps in ZooKeeper beside the latch node, every write fenced by its leadership: the
 * last fire time per trigger ({@link FireTimes}), executions of jobs requesting recovery
 * ({@link InFlightJobs}), and whatever else must commit only while it leads (runtime triggers).
 */
public final class LeaderRecords {

	/** The job-data key under which a firing the gate allowed carries the election it runs under. */
	public static final String ELECTION_KEY = "zk.leader.election";

	private static final Log logger = LogFactory.getLog(LeaderRecords.class);

	private final CuratorFramework client;

	/** The election's term granted now, whether or not its lease is valid now; {@code null} while none. */
	private final Supplier<@Nullable Term> term;

	/** The election's epoch now: 0 while it does not lead or its lease is not valid. */
	private final LongSupplier epoch;

	/** The session lease the election asks before every grant, firing and leader-only call. */
	private final Supplier<SessionLease> lease;

	private final AtomicLong vetoedFirings = new AtomicLong();

	private final FireTimes fireTimes;

	private final InFlightJobs inFlight;

	private final InFlightRecovery recovery;

	/** More operations a firing commits with its fire time: the consumption of the run request it carries out. */
	public volatile @Nullable FiringOperations firingOperations;

	/** Tests only: run as the gate starts deciding a firing of this election's jobs. */
	public volatile @Nullable Runnable beforeDecision;

	/** Tests only: run between a firing's fire-time commit and the re-check of the leadership. */
	public volatile @Nullable Runnable afterFireTimeCommit;

	/** Tests only: run on a grant between reading a trigger and moving it past the recorded fire time. */
	public volatile @Nullable Runnable beforeTriggerMove;

	/**
	 * Create the records of one election; its terms, epochs and lease are asked of it at each write.
	 * @param client the application's client
	 * @param latchPath the election's latch node
	 * @param term the term granted now, {@code null} while none
	 * @param epoch the epoch now, 0 while not leading or the lease is not valid
	 * @param lease the session lease in force
	 */
	public LeaderRecords(CuratorFramework client, String latchPath, Supplier<@Nullable Term> term, LongSupplier epoch,
			Supplier<SessionLease> lease) {
		this.client = client;
		this.term = term;
		this.epoch = epoch;
		this.lease = lease;
		this.fireTimes = new FireTimes(client, latchPath);
		this.inFlight = new InFlightJobs(client, latchPath);
		this.recovery = new InFlightRecovery(client, this.inFlight, this.fireTimes);
	}

	/**
	 * For the Quartz gate, just before a firing starts: the epoch it runs under, after recording its fire
	 * time (and, for a job that requests recovery, the execution) in ZooKeeper fenced by this leadership;
	 * 0 when this instance does not lead or the record failed. A fire time recorded just before the
	 * leadership ended is handed on to the next leader (see {@link InFlightJobs#notStarted}).
	 */
	public long startFiring(String trigger, long scheduledFireTimeMillis, JobExecutionContext context) {
		Term current = this.term.get();
		long epoch = this.epoch.getAsLong();
		if (current == null || epoch != current.epoch()) {
			return 0;
		}
		List<CuratorOp> request;
		try {
			FiringOperations extra = this.firingOperations;
			request = (extra != null) ? extra.operations(context, epoch) : List.of();
		}
		catch (Exception ex) {
			logger.warn("Could not prepare the consumption of the run request of " + trigger + "; it does not start: " + ex);
			return 0;
		}
		InFlightJobs.Starting starting;
		try {
			starting = this.inFlight.starting(epoch, context);
		}
		catch (Exception ex) {
			logger.warn("Could not prepare the in-flight record of " + trigger + "; the firing does not start: " + ex);
			return 0;
		}
		List<CuratorOp> operations = new ArrayList<>(starting.operations());
		operations.addAll(request);
		SessionLease lease = this.lease.get();
		if (!this.fireTimes.record(current, lease, trigger, scheduledFireTimeMillis, operations)) {
			return 0;
		}
		Runnable hook = this.afterFireTimeCommit;
		if (hook != null) {
			hook.run();
		}
		if (!lease.isValidFor(current.session()) || this.epoch.getAsLong() != epoch) {
			this.inFlight.notStarted(current, context, starting, scheduledFireTimeMillis);
			return 0;
		}
		this.inFlight.started(context, starting);
		return epoch;
	}

	/**
	 * Commit the operations only while this instance leads, in one transaction with its leadership's
	 * fence; false when it does not lead or the fence was lost (a successor has claimed since).
	 * @throws Exception when an operation failed, or ZooKeeper could not be asked
	 */
	public boolean commitFenced(List<CuratorOp> operations) throws Exception {
		Term current = this.term.get();
		if (current == null || this.epoch.getAsLong() != current.epoch()) {
			return false;
		}
		return this.fireTimes.commit(current, this.lease.get(), operations);
	}

	/**
	 * Delete the fire-time record of a trigger no other instance has and that will not fire again (a
	 * finished or unscheduled runtime trigger, a one-shot {@code triggerJob} run, a recovery), so records
	 * do not pile up; fenced like every write, and left in place when this instance does not lead.
	 */
	public void forgetFireTime(String trigger) {
		try {
			commitFenced(List.of(this.fireTimes.forget(trigger)));
		}
		catch (org.apache.zookeeper.KeeperException.NoNodeException ex) {
			// never fired, or already gone
		}
		catch (Exception ex) {
			logger.debug("Could not delete the fire-time record of " + trigger + ": " + ex);
		}
	}

	/**
	 * For the election of a leader group: keep the fire-time records beside the application's latch node,
	 * where every election that may gate a trigger (on instances whose groupings differ) finds them.
	 */
	public void keepFireTimesBeside(String applicationLatchPath) {
		this.fireTimes.keepBeside(applicationLatchPath);
	}

	/** The application's client, for the records kept beside the latch node. */
	public CuratorFramework client() {
		return this.client;
	}

	/** The executions of jobs requesting recovery, recorded while they run. */
	public InFlightJobs inFlightJobs() {
		return this.inFlight;
	}

	/** On a grant: run once what previous leaderships left in flight, or recorded and did not start. */
	public void recoverInFlight(Scheduler scheduler, long epoch, Set<String> runningHere) throws Exception {
		this.recovery.recover(scheduler, epoch, runningHere);
	}

	/** The znode of a trigger's fire-time record. */
	public String fireTimeNode(String trigger) {
		return this.fireTimes.node(trigger);
	}

	/** The last fire time any leader of this group started for a trigger, read from ZooKeeper. */
	public OptionalLong lastFireTime(String trigger) throws Exception {
		return this.fireTimes.last(trigger);
	}

	/** The Quartz gate vetoed a firing because this instance did not lead. */
	public void firingVetoed() {
		this.vetoedFirings.incrementAndGet();
	}

	/** How many scheduled firings the gate vetoed, since startup. */
	public long vetoedFirings() {
		return this.vetoedFirings.get();
	}

	/** Operations a firing commits with its fire-time record. */
	@FunctionalInterface
	public interface FiringOperations {

		List<CuratorOp> operations(JobExecutionContext context, long epoch) throws Exception;

	}

}
