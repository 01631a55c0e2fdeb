package dev.zkspring.leader.jobs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.jspecify.annotations.Nullable;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;

import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.LeaderJobs;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.jobs.JobRequests.Request;
import dev.zkspring.leader.term.LeaderRecords;

/**
 * The leader's side of job requests: while this instance leads (the application's election, or the
 * leader group of the requested job), it reads the pending requests for its jobs (woken by a watch on the
 * requests node, by its grant, and by a slow re-check) and
 * consumes each once, in a transaction fenced by its leadership that deletes the request (at the
 * version it read) and creates the answer. A pause or resume commits its record in that transaction;
 * a run schedules a one-shot trigger, and the request is consumed in the transaction that records that
 * firing's fire time, so the run starts if and only if this leader consumed it: a leadership that ends
 * meanwhile leaves the request to the next leader, and a request withdrawn by its caller never runs.
 */
final class RequestConsumer {

	static final String RUN_GROUP = "zk-run-now";

	private static final Log logger = LogFactory.getLog(RequestConsumer.class);

	private final ZkLeaderElection election;

	private final JobRequests requests;

	private final JobOperations jobs;

	/** The records the election keeps beside its latch node. */
	private final LeaderRecords records;

	/** By the one-shot trigger carrying it out: each run request scheduled here and not yet ended. */
	private final Map<TriggerKey, Request> runs = new ConcurrentHashMap<>();

	/** How long an answer waits for its caller before the leader removes it. */
	private static final long ORPHANED_ANSWER_MILLIS = 300_000;

	private int polls;

	/** Tests only: run just before a run request's firing commits its consumption. */
	volatile @Nullable Runnable beforeRunCommit;

	/** Asks for a poll soon (on the job operations' worker). */
	private final Runnable wake;

	/** Set on the requests node by each poll while leading: a new request wakes the consumer. */
	private final CuratorWatcher watcher;

	RequestConsumer(ZkLeaderElection election, LeaderRecords records, JobRequests requests, JobOperations jobs,
			Runnable wake) {
		this.records = records;
		this.election = election;
		this.requests = requests;
		this.jobs = jobs;
		this.wake = wake;
		this.watcher = (event) -> wake.run();
	}

	/** Consume what is pending, if this instance leads. */
	void poll() throws Exception {
		if (!this.election.isLeader()) {
			return;
		}
		CuratorFramework client = this.records.client();
		this.requests.ensure();
		if (++this.polls % 50 == 0) {
			removeOrphanedAnswers(client);
		}
		// ZooKeeper keeps one watch per watcher and node, however often a poll sets it
		List<String> children = new ArrayList<>(client.getChildren().usingWatcher(this.watcher).forPath(this.requests.requests));
		Collections.sort(children);
		Set<String> running = ConcurrentHashMap.newKeySet();
		this.runs.values().forEach((request) -> running.add(request.node()));
		for (String child : children) {
			if (!running.contains(this.requests.requests + "/" + child)) {
				Request request = this.requests.read(child);
				// with leader groups, each request is the business of the election that runs its job
				if (request != null && this.jobs.electionOf(request.job()) == this.election && this.election.isLeader()) {
					handle(request);
				}
			}
		}
	}

	/** Answers nobody collected (the caller died, or a request nobody waits for) go after a while. */
	private void removeOrphanedAnswers(CuratorFramework client) throws Exception {
		long now = System.currentTimeMillis();
		for (String child : client.getChildren().forPath(this.requests.answers)) {
			String node = this.requests.answers + "/" + child;
			org.apache.zookeeper.data.Stat stat = client.checkExists().forPath(node);
			if (stat != null && now - stat.getCtime() > ORPHANED_ANSWER_MILLIS) {
				try {
					client.delete().withVersion(stat.getVersion()).forPath(node);
				}
				catch (org.apache.zookeeper.KeeperException.NoNodeException ex) {
					// collected meanwhile
				}
			}
		}
	}

	private void handle(Request request) throws Exception {
		Scheduler scheduler = this.jobs.schedulerOf(request.job());
		String leader = this.election.participantId();
		if (!List.of("run", "pause", "resume").contains(request.action())) {
			consume(request, new JobAnswer(JobAnswer.Status.REFUSED, "Unknown action in request " + request.node()
					+ ": use run, pause or resume."));
		}
		else if (scheduler == null) {
			consume(request, new JobAnswer(JobAnswer.Status.UNKNOWN_JOB,
					"Leader " + leader + " has no job " + request.job() + "."));
		}
		else if ("run".equals(request.action())) {
			TriggerKey key = TriggerKey.triggerKey(request.node().substring(request.node().lastIndexOf('/') + 1), RUN_GROUP);
			this.runs.put(key, request);
			try {
				scheduler.scheduleJob(TriggerBuilder.newTrigger().withIdentity(key).forJob(request.job())
					.usingJobData(trace(request))
					.startNow()
					.build());
			}
			catch (Exception ex) {
				this.runs.remove(key);
				throw ex;
			}
		}
		else {
			pauseOrResume(request, scheduler, leader);
		}
	}

	/** The asker's trace context, for the run's observation to continue (LeaderJobs.TRACE_PREFIX). */
	private static JobDataMap trace(Request request) {
		JobDataMap data = new JobDataMap();
		request.trace().forEach((field, value) -> data.put(LeaderJobs.TRACE_PREFIX + field, value));
		return data;
	}

	private void pauseOrResume(Request request, Scheduler scheduler, String leader) throws Exception {
		CuratorFramework client = this.records.client();
		boolean pause = "pause".equals(request.action());
		String record = this.requests.pausedNode(request.job());
		boolean recorded = client.checkExists().forPath(record) != null;
		String byConfig = this.jobs.pausedByConfiguration(request.job());
		if (!pause && byConfig != null) {
			consume(request, new JobAnswer(JobAnswer.Status.REFUSED, "Job " + request.job() + " is paused by " + byConfig
					+ "=true: change that property to resume it."));
			return;
		}
		List<CuratorOp> change = new ArrayList<>();
		if (pause && !recorded) {
			change.add(client.transactionOp().create().forPath(record, request.from().getBytes(StandardCharsets.UTF_8)));
		}
		else if (!pause && recorded) {
			change.add(client.transactionOp().delete().forPath(record));
		}
		JobAnswer answer = new JobAnswer(JobAnswer.Status.DONE, "Job " + request.job() + (pause ? " paused" : " resumed")
				+ " by leader " + leader + ".");
		if (consume(request, answer, change)) {
			this.jobs.applyPause(scheduler, request.job(), pause);
			logger.info("Job " + request.job() + (pause ? " paused" : " resumed") + " on request of " + request.from());
		}
	}

	private boolean consume(Request request, JobAnswer answer, List<CuratorOp> also) throws Exception {
		CuratorFramework client = this.records.client();
		List<CuratorOp> operations = new ArrayList<>(consumption(request, answer));
		operations.addAll(also);
		return this.records.commitFenced(operations);
	}

	private void consume(Request request, JobAnswer answer) throws Exception {
		consume(request, answer, List.of());
	}

	private List<CuratorOp> consumption(Request request, JobAnswer answer) throws Exception {
		CuratorFramework client = this.records.client();
		return List.of(client.transactionOp().delete().withVersion(request.version()).forPath(request.node()),
				client.transactionOp().create().forPath(request.answerNode(this.requests.answers),
						JobRequests.encode(answer).getBytes(StandardCharsets.UTF_8)));
	}

	/**
	 * For the gate, as a firing is about to record its fire time: the operations consuming the run
	 * request it carries out (empty for any other firing), to commit in the same transaction.
	 */
	List<CuratorOp> onFiring(JobExecutionContext context, long epoch) throws Exception {
		Request request = this.runs.get(context.getTrigger().getKey());
		if (request == null) {
			return List.of();
		}
		Runnable hook = this.beforeRunCommit;
		if (hook != null) {
			hook.run();
		}
		return consumption(request, new JobAnswer(JobAnswer.Status.STARTED, "Run of " + request.job() + " started on "
				+ this.election.participantId() + " under epoch " + epoch + "."));
	}

	/** A firing ended here (ran or vetoed): a run request it did not consume is up for the next poll. */
	void ended(TriggerKey trigger) {
		if (this.runs.remove(trigger) != null) {
			this.wake.run();
		}
	}

}
