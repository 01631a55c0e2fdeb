package dev.zkspring.jobs;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;

import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.jobs.JobRequestTree;

/**
 * Job requests from outside the application, for the operator's tool: the same run, pause and resume requests
 * the {@code zookeeper} endpoint submits beside an election's latch node, consumed once by its leader, answered,
 * and withdrawn when no answer comes in time (then nothing was done); and what the tree records of each job (the
 * last runs, operators' pauses). Needs only a {@link CuratorFramework} with the applications' namespace and
 * credentials, no application context. The public entry point of {@code dev.zkspring.leader.jobs}' requests.
 */
public final class JobRequester {

	private final JobRequestTree tree;

	/**
	 * Requests to the jobs of one election.
	 * @param client a started client
	 * @param latchPath the application's latch node, {@code {zk.leader.root}/{zk.leader.group}}
	 */
	public JobRequester(CuratorFramework client, String latchPath) {
		this.tree = new JobRequestTree(client, latchPath);
	}

	/**
	 * Carry the asker's trace context in each request, as {@link ZkJobs#setTraceContext} does: for a requester
	 * used inside a traced application ({@code ZkJobRequestTracing}); the tool has no trace and sets none.
	 */
	public void setTraceContext(Supplier<Map<String, String>> fields) {
		this.tree.traceContext(fields);
	}

	/**
	 * Ask the leader to run, pause or resume a job, and wait (bounded) for its answer.
	 * @param job the job's key
	 * @param action {@code run}, {@code pause} or {@code resume}
	 * @param from who asks (recorded in the request and in an operator's pause)
	 * @param timeout how long to wait for the answer before the request is withdrawn
	 * @return the leader's answer; {@code NO_LEADER} without asking when nobody takes part in the election;
	 * {@code TIMEOUT} when it was withdrawn unanswered (also when the job's leader group has no leader)
	 */
	public JobAnswer request(JobKey job, String action, String from, Duration timeout) throws Exception {
		return this.tree.request(job, action, from, timeout);
	}

	/** The jobs the tree knows of: each that ran (and still has runs kept) or that an operator paused, by key. */
	public List<JobKey> knownJobs() throws Exception {
		return this.tree.knownJobs();
	}

	/** Who paused the job, as the request recorded it, or {@code null} when it is not paused by an operator. */
	public @Nullable String pausedBy(JobKey job) throws Exception {
		return this.tree.pausedBy(job);
	}

	/** The job's last runs, newest first, with the endpoint's field names. */
	public List<Map<String, Object>> history(JobKey job) throws Exception {
		return this.tree.history(job);
	}

}
