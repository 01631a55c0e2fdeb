package dev.zkspring.leader.jobs;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;
import org.quartz.TriggerKey;

import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.LeadershipGrantedEvent;
import dev.zkspring.leader.LeadershipListener;
import dev.zkspring.leader.LeadershipRevokedEvent;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.group.GroupElections;
import dev.zkspring.leader.term.LeaderRecords;

/**
 * Which election's leader runs each job — its leader group's, else the application's — and, per
 * election, the consumer of the requests for its jobs. Every request, pause record and run history
 * stays in the one tree beside the application's latch node; a request is consumed in a transaction
 * fenced by the leadership of the election that runs its job, so a group's leader carries it out once.
 */
final class JobLeaders {

	private static final Log logger = LogFactory.getLog(JobLeaders.class);

	private final ZkLeaderElection election;

	private final @Nullable GroupElections groups;

	/** The records each election keeps beside its latch node. */
	private final Function<ZkLeaderElection, LeaderRecords> recordsOf;

	/** By election (the application's, then each group's). */
	private final Map<ZkLeaderElection, RequestConsumer> consumers;

	/** How often a leader reads the requests without being woken. */
	static final Duration RECHECK = Duration.ofSeconds(5);

	private final ScheduledExecutorService worker;

	private final String requests;

	private final AtomicBoolean pollQueued = new AtomicBoolean();

	JobLeaders(ZkLeaderElection election, Function<ZkLeaderElection, LeaderRecords> recordsOf,
			@Nullable GroupElections groups, JobRequests requests, JobOperations jobs,
			ScheduledExecutorService worker) {
		this.worker = worker;
		this.requests = requests.requests;
		Runnable wake = this::wake;
		this.election = election;
		this.recordsOf = recordsOf;
		this.groups = groups;
		Map<ZkLeaderElection, RequestConsumer> byElection = new LinkedHashMap<>();
		byElection.put(election, new RequestConsumer(election, recordsOf.apply(election), requests, jobs, wake));
		if (groups != null) {
			groups.elections().values().forEach((group) -> byElection.put(group,
					new RequestConsumer(group, recordsOf.apply(group), requests, jobs, wake)));
		}
		this.consumers = byElection;
		// a new leader consumes what is pending at once, and from then on is woken by its watch
		LeadershipListener onGrant = new LeadershipListener() {

			@Override
			public void leadershipGranted(LeadershipGrantedEvent event) {
				wake.run();
			}

			@Override
			public void leadershipRevoked(LeadershipRevokedEvent event) {
			}

		};
		this.consumers.keySet().forEach((owner) -> owner.addListener(onGrant));
		// the watch wakes the leader on each request; the re-check covers a watch lost with a connection
		worker.scheduleWithFixedDelay(this::poll, 200, RECHECK.toMillis(), TimeUnit.MILLISECONDS);
		// a run request is consumed by the firing that carries it out, fenced by the election that runs the job
		this.consumers.forEach((owner, consumer) -> recordsOf.apply(owner).firingOperations = consumer::onFiring);
	}

	/** The election whose leader runs the job. */
	ZkLeaderElection electionOf(JobKey job) {
		String group = leaderGroupOf(job);
		ZkLeaderElection grouped = (group != null && this.groups != null) ? this.groups.election(group) : null;
		return (grouped != null) ? grouped : this.election;
	}

	/** The leader group of a job, or {@code null} for the application's own election. */
	@Nullable String leaderGroupOf(JobKey job) {
		return (this.groups != null) ? this.groups.groupOf(job.getName()).orElse(null) : null;
	}

	RequestConsumer consumer(JobKey job) {
		return consumerOf(electionOf(job));
	}

	RequestConsumer consumerOf(ZkLeaderElection owner) {
		return this.consumers.get(owner);
	}

	/** A firing ended here: the consumer that scheduled it, if any, forgets it. */
	void ended(TriggerKey trigger) {
		this.consumers.values().forEach((consumer) -> consumer.ended(trigger));
	}

	/** The answer when nobody leads the job's election now, {@code null} while someone does. */
	@Nullable JobAnswer noLeader(JobKey job) {
		ZkLeaderElection leading = electionOf(job);
		if (leading.leaderId().isPresent()) {
			return null;
		}
		String group = leaderGroupOf(job);
		return new JobAnswer(JobAnswer.Status.NO_LEADER, "No instance leads " + leading.latchPath()
				+ ((group != null) ? " (leader group " + group + ")" : "") + " now: nothing was done to " + job + ".");
	}

	/** Each consumer whose election leads here consumes what is pending for its jobs. */
	private void poll() {
		this.pollQueued.set(false);
		for (RequestConsumer consumer : this.consumers.values()) {
			try {
				consumer.poll();
			}
			catch (Exception ex) {
				logger.debug("Could not read the job requests in " + this.requests + ": " + ex);
			}
		}
	}

	/** Poll soon on the worker, once however often asked before it runs. */
	private void wake() {
		if (this.pollQueued.compareAndSet(false, true)) {
			try {
				this.worker.execute(this::poll);
			}
			catch (RejectedExecutionException ex) {
				// shut down
			}
		}
	}

	void detach() {
		this.consumers.keySet().forEach((owner) -> this.recordsOf.apply(owner).firingOperations = null);
	}

}
