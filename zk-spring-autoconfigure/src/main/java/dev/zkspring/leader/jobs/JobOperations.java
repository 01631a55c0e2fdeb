package dev.zkspring.leader.jobs;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.matchers.GroupMatcher;

import org.springframework.core.env.Environment;

import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.group.GroupElections;
import dev.zkspring.leader.jobs.JobSchedules.Entry;
import dev.zkspring.leader.term.LeaderRecords;

/**
 * Leader-gated jobs as operators run them: schedules and pauses from {@code zk.quartz.jobs.*} (applied
 * on every instance, at startup and on each configuration change), run, pause and resume requests from
 * any instance carried out once by the leader, and each job's recent runs, all kept in ZooKeeper beside
 * the group's latch node. What {@code ZkJobs}, the public entry point, does; the Quartz gate drives it.
 * Over 300 lines because configured schedules, operators' pauses and a grant's trigger moves are applied
 * under this object's one monitor, so none of them overwrites another; split, that monitor would be shared.
 */
public final class JobOperations {

	private static final Log logger = LogFactory.getLog(JobOperations.class);

	private final ZkLeaderElection election;

	/** The records each election keeps beside its latch node. */
	private final Function<ZkLeaderElection, LeaderRecords> recordsOf;

	private final Duration requestTimeout;

	private final JobRequests requests;

	private final JobSchedules schedules;

	private final JobHistory history;

	/** Which election runs each job, and the consumers of their requests. */
	private final JobLeaders leaders;

	/** The asker's trace context fields, carried in each request (none without tracing). */
	private volatile Supplier<Map<String, String>> traceContext = Map::of;

	/** Whether a gate holds a job now: its election does not lead here (leader groups). */
	private volatile Predicate<JobKey> held = (job) -> false;

	private final List<Scheduler> schedulers = new CopyOnWriteArrayList<>();

	/** Jobs an operator paused, as this instance last read or wrote them. */
	private final Set<JobKey> operatorPaused = ConcurrentHashMap.newKeySet();

	private final ScheduledThreadPoolExecutor worker = newWorker();

	/** How long a stop waits for the last runs' history records while ZooKeeper is there. */
	private static final Duration LAST_RECORDS = Duration.ofSeconds(2);

	private volatile Map<String, Entry> entries = Map.of();

	/** The entries as last bound, valid or not, so a change elsewhere that leaves them as they were does nothing. */
	private @Nullable Map<String, Entry> bound;

	/** Why the last binding failed, so an unrelated change does not repeat the warning. */
	private @Nullable String bindFailure;

	/** How often a leader reads the requests without being woken. */
	static final Duration RECHECK = JobLeaders.RECHECK;

	/**
	 * Create the job operations of an application whose jobs may belong to leader groups: a request for a
	 * job of a group is carried out by that group's leader, and its pause holds across that group's handovers.
	 * @param election the application's election
	 * @param recordsOf the records of an election (the application's or a group's)
	 * @param groups the elections of the leader groups of {@code zk.leader.groups}, {@code null} for none
	 * @param environment where {@code zk.quartz.jobs.*} is read, now and on each configuration change
	 * @param historySize how many recent runs per job are kept
	 * @param requestTimeout how long a request waits for the leader's answer
	 */
	public JobOperations(ZkLeaderElection election, Function<ZkLeaderElection, LeaderRecords> recordsOf,
			@Nullable GroupElections groups, Environment environment, int historySize, Duration requestTimeout) {
		this.election = election;
		this.recordsOf = recordsOf;
		this.requestTimeout = requestTimeout;
		this.requests = new JobRequests(client(), election.latchPath());
		this.schedules = new JobSchedules(environment);
		this.leaders = new JobLeaders(election, recordsOf, groups, this.requests, this, this.worker);
		this.history = new JobHistory(client(), this.requests, election, historySize, this.worker,
				this.leaders::ended);
	}

	/** The application's client, for the records kept beside the latch node. */
	CuratorFramework client() {
		return this.recordsOf.apply(this.election).client();
	}

	/** The records of the election whose leader runs the job. */
	public LeaderRecords recordsOf(JobKey job) {
		return this.recordsOf.apply(electionOf(job));
	}

	/** The election whose leader runs the job: its leader group's, else the application's. */
	public ZkLeaderElection electionOf(JobKey job) {
		return this.leaders.electionOf(job);
	}

	/** The leader group of a job, or {@code null} for the application's own election. */
	public @Nullable String leaderGroupOf(JobKey job) {
		return this.leaders.leaderGroupOf(job);
	}

	/** Carry the asker's trace context (its propagation fields) in each request, so the run continues its trace. */
	public void traceContext(Supplier<Map<String, String>> fields) {
		this.traceContext = fields;
	}

	/** With leader groups: whether a gate holds a job now; set before the scheduler first starts. */
	public void held(Predicate<JobKey> held) {
		this.held = held;
	}

	/** Take a gated scheduler's jobs under operation; before it first starts. */
	public void attach(Scheduler scheduler) throws SchedulerException {
		this.schedulers.add(scheduler);
		this.schedules.remember(scheduler, List.copyOf(scheduler.getJobKeys(GroupMatcher.anyJobGroup())));
		scheduler.getListenerManager().addJobListener(this.history);
		applyConfiguration();
	}

	/** The configuration changed: bind {@code zk.quartz.jobs.*} again and apply what differs. */
	public void configurationChanged() {
		// any key may change an entry through a placeholder (cron: ${report.cron}): bind again, apply what differs
		applyConfiguration(false);
	}

	/** Bind {@code zk.quartz.jobs.*} and apply each valid entry; refuse the others by key and reason. */
	public synchronized void applyConfiguration() {
		applyConfiguration(true);
	}

	private synchronized void applyConfiguration(boolean always) {
		Map<String, Entry> bound;
		try {
			bound = this.schedules.bind();
		}
		catch (IllegalArgumentException ex) {
			if (always || !String.valueOf(ex.getMessage()).equals(this.bindFailure)) {
				logger.warn("Refused the change to " + JobSchedules.PREFIX + ": " + ex.getMessage()
						+ "; every job keeps its schedule");
			}
			this.bindFailure = ex.getMessage();
			return;
		}
		this.bindFailure = null;
		if (!always && bound.equals(this.bound)) {
			return;
		}
		this.bound = bound;
		Map<String, Entry> previous = this.entries;
		Map<String, Entry> inForce = new LinkedHashMap<>();
		this.schedules.retainRefusals(bound.keySet());
		bound.forEach((name, entry) -> {
			List<JobKey> matching = jobKeys().stream().filter((job) -> job.getName().equalsIgnoreCase(name)).toList();
			String refusal = this.schedules.validate(name, entry, matching);
			this.schedules.refused(name, refusal);
			Entry kept = (refusal != null) ? previous.get(name) : entry;
			if (kept != null) {
				inForce.put(name, kept);
			}
		});
		for (Scheduler scheduler : this.schedulers) {
			for (JobKey job : jobKeys(scheduler)) {
				Entry entry = JobSchedules.entryOf(inForce, job.getName());
				try {
					this.schedules.applySchedule(scheduler, job, entry);
					applyPause(scheduler, job, this.operatorPaused.contains(job), entry);
				}
				catch (SchedulerException | RuntimeException ex) {
					// Quartz refused the schedule: the job keeps its own, the other entries still apply
					logger.warn("Could not apply " + JobSchedules.PREFIX + "." + job.getName() + " to " + job + " ("
							+ ex.getClass().getSimpleName() + "); the job keeps its schedule");
				}
			}
		}
		this.entries = inForce;
	}

	/**
	 * Run a grant's move of triggers past their recorded fire times with no configured schedule applied
	 * meanwhile: the move copies each trigger it read, so a schedule applied between its read and its
	 * reschedule would be lost; applied after, it starts from the moved trigger.
	 */
	public synchronized void movingTriggers(GrantWork move) throws SchedulerException {
		move.run();
	}

	/** On a grant, before the scheduler starts: pause what operators paused, resume what they resumed. */
	public synchronized void granted(Scheduler scheduler, Predicate<JobKey> owned) {
		for (JobKey job : jobKeys(scheduler)) {
			if (!owned.test(job)) {
				continue;
			}
			try {
				boolean paused = client().checkExists().forPath(this.requests.pausedNode(job)) != null;
				applyPause(scheduler, job, paused);
			}
			catch (Exception ex) {
				logger.warn("Could not read whether " + job + " is paused from " + this.requests.pausedNode(job)
						+ "; it keeps its state: " + ex);
			}
		}
	}

	/** Apply an operator's pause together with the configuration's. */
	public synchronized void applyPause(Scheduler scheduler, JobKey job, boolean byOperator) throws SchedulerException {
		applyPause(scheduler, job, byOperator, JobSchedules.entryOf(this.entries, job.getName()));
	}

	private void applyPause(Scheduler scheduler, JobKey job, boolean byOperator, Entry entry) throws SchedulerException {
		if (byOperator) {
			this.operatorPaused.add(job);
		}
		else {
			this.operatorPaused.remove(job);
		}
		JobSchedules.pause(scheduler, job, byOperator || entry.isPaused() || this.held.test(job));
	}

	/** The configuration key pausing the job, or {@code null} when the configuration does not pause it. */
	public @Nullable String pausedByConfiguration(JobKey job) {
		return JobSchedules.entryOf(this.entries, job.getName()).isPaused() ? JobSchedules.PREFIX + "." + job.getName()
				+ ".paused" : null;
	}

	/** The gated scheduler that has the job, or {@code null}. */
	public @Nullable Scheduler schedulerOf(JobKey job) {
		for (Scheduler scheduler : this.schedulers) {
			try {
				if (scheduler.checkExists(job)) {
					return scheduler;
				}
			}
			catch (SchedulerException ex) {
				// shut down
			}
		}
		return null;
	}

	/**
	 * Have the leader run, pause or resume a job, and wait (bounded) for its answer.
	 * @param group the job's group ({@code DEFAULT} for Quartz's default)
	 * @param name the job's name
	 * @param action {@code run}, {@code pause} or {@code resume}
	 * @return the answer: unknown job and no leader without asking the leader, a timeout after withdrawing
	 */
	public JobAnswer request(String group, String name, String action) {
		JobKey job = JobKey.jobKey(name, group);
		if (!List.of("run", "pause", "resume").contains(action)) {
			return new JobAnswer(JobAnswer.Status.REFUSED, "Unknown action for " + job + ": use run, pause or resume.");
		}
		if (schedulerOf(job) == null) {
			return new JobAnswer(JobAnswer.Status.UNKNOWN_JOB, "No leader-gated job " + job + " in this application; jobs: "
					+ jobKeys() + ".");
		}
		JobAnswer noLeader = this.leaders.noLeader(job);
		if (noLeader != null) {
			return noLeader;
		}
		try {
			String node = this.requests.submit(action, job, this.election.participantId(), this.traceContext.get());
			return this.requests.await(node, this.requestTimeout, job);
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			return new JobAnswer(JobAnswer.Status.REFUSED, "Could not ask the leader about " + job + " through "
					+ this.requests.requests + ": " + ex.getClass().getSimpleName());
		}
	}

	/** Every job: group, name, schedule, paused, next fire time (on the leader), leader, refusal, last runs. */
	public List<Map<String, Object>> describe() {
		return new JobViews(this, this.requests, this.history).describe(this.schedulers);
	}

	public @Nullable String refusal(JobKey job) {
		return this.schedules.refusal(job.getName());
	}

	/** Every job of the gated schedulers, without asking ZooKeeper. */
	public List<JobKey> jobKeys() {
		return this.schedulers.stream().flatMap((scheduler) -> jobKeys(scheduler).stream()).toList();
	}

	public static List<JobKey> jobKeys(Scheduler scheduler) {
		try {
			return List.copyOf(scheduler.getJobKeys(GroupMatcher.anyJobGroup()));
		}
		catch (SchedulerException ex) {
			return List.of();
		}
	}

	/** Tests only: the thread that writes history records and carries out requests. */
	public Executor writer() {
		return this.worker;
	}

	/** Tests only: the leader side of the application's election. */
	public RequestConsumer consumer() {
		return this.leaders.consumerOf(this.election);
	}

	/** Tests only: the leader side of the election that runs a job. */
	public RequestConsumer consumer(JobKey job) {
		return this.leaders.consumer(job);
	}

	/** Work a grant does with the Quartz scheduler, such as moving triggers past their recorded fire times. */
	@FunctionalInterface
	public interface GrantWork {

		void run() throws SchedulerException;

	}

	private static ScheduledThreadPoolExecutor newWorker() {
		ScheduledThreadPoolExecutor worker = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "zk-jobs");
			thread.setDaemon(true);
			return thread;
		});
		// a stop waits for the records already queued, not for the next scheduled re-read
		worker.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
		return worker;
	}

	/**
	 * Write the history records of the runs that ended during the stop (without ZooKeeper, none is waited for:
	 * the instance that hosted it may have stopped first), then stop.
	 */
	public void destroy() {
		this.worker.shutdown();
		try {
			if (!client().getZookeeperClient().isConnected()
					|| !this.worker.awaitTermination(LAST_RECORDS.toMillis(), TimeUnit.MILLISECONDS)) {
				this.worker.shutdownNow();
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			this.worker.shutdownNow();
		}
		this.leaders.detach();
	}

}
