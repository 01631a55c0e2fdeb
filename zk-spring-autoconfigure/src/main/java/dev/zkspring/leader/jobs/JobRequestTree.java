package dev.zkspring.leader.jobs;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;

import dev.zkspring.leader.JobAnswer;

/**
 * What {@code dev.zkspring.jobs.JobRequester}, the public entry point, does: job requests submitted beside an
 * election's latch node from outside the application (the operator's tool), awaited and withdrawn as
 * {@link JobOperations#request} does, and what the tree records of each job.
 */
public final class JobRequestTree {

	private final CuratorFramework client;

	private final String latchPath;

	private final JobRequests requests;

	private volatile Supplier<Map<String, String>> traceContext = Map::of;

	/**
	 * Requests to the jobs of one election.
	 * @param client a started client
	 * @param latchPath the application's latch node, {@code {zk.leader.root}/{zk.leader.group}}
	 */
	public JobRequestTree(CuratorFramework client, String latchPath) {
		this.client = client;
		this.latchPath = latchPath;
		this.requests = new JobRequests(client, latchPath);
	}

	/** Carry the asker's trace context (its propagation fields) in each request, so the run continues its trace. */
	public void traceContext(Supplier<Map<String, String>> fields) {
		this.traceContext = fields;
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
		if (!List.of("run", "pause", "resume").contains(action)) {
			return new JobAnswer(JobAnswer.Status.REFUSED, "Unknown action for " + job + ": use run, pause or resume.");
		}
		if (participants().isEmpty()) {
			return new JobAnswer(JobAnswer.Status.NO_LEADER, "No instance takes part in the election " + this.latchPath
					+ " now: nothing was done to " + job + ".");
		}
		String node = this.requests.submit(action, job, from, this.traceContext.get());
		return this.requests.await(node, timeout, job);
	}

	/** The latch node's children: one per instance taking part in the election. */
	private List<String> participants() throws Exception {
		try {
			return this.client.getChildren().forPath(this.latchPath);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

	/** The jobs the tree knows of: each that ran (and still has runs kept) or that an operator paused, by key. */
	public List<JobKey> knownJobs() throws Exception {
		TreeSet<String> encoded = new TreeSet<>(children(this.requests.history));
		encoded.addAll(children(this.requests.paused));
		List<JobKey> jobs = new ArrayList<>();
		for (String name : encoded) {
			String key = java.net.URLDecoder.decode(name, StandardCharsets.UTF_8);
			int dot = key.indexOf('.');
			jobs.add((dot > 0) ? JobKey.jobKey(key.substring(dot + 1), key.substring(0, dot)) : JobKey.jobKey(key));
		}
		return jobs;
	}

	/** Who paused it, as the request recorded it, or {@code null} when it is not paused by an operator. */
	public @Nullable String pausedBy(JobKey job) throws Exception {
		try {
			return new String(this.client.getData().forPath(this.requests.pausedNode(job)), StandardCharsets.UTF_8);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	/** The job's last runs, newest first, with the endpoint's field names. */
	public List<Map<String, Object>> history(JobKey job) throws Exception {
		String node = this.requests.historyNode(job);
		List<String> children = new ArrayList<>(children(node));
		children.sort(Collections.reverseOrder());
		List<Map<String, Object>> runs = new ArrayList<>();
		for (String child : children) {
			try {
				runs.add(JobHistory.describe(new String(this.client.getData().forPath(node + "/" + child),
						StandardCharsets.UTF_8)));
			}
			catch (KeeperException.NoNodeException ex) {
				// trimmed meanwhile
			}
		}
		return runs;
	}

	private List<String> children(String node) throws Exception {
		try {
			return this.client.getChildren().forPath(node);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

}
