package dev.zkspring.leader.jobs;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;

import dev.zkspring.client.OwnedPaths;
import dev.zkspring.leader.JobAnswer;

/**
 * The znodes of job operations beside the group's latch node, under {@code {latch}.jobs}:
 * {@code requests/r-{seq}} (a run, pause or resume any instance asks for, data
 * {@code action\ngroup\nname\nfrom}, then the asker's trace context, one {@code field=value} line per
 * propagation field, when it asked inside a trace), {@code answers/r-{seq}} (created by the leader in the transaction
 * that deletes the request, so each request is consumed once), {@code paused/{group.name}} (jobs an
 * operator paused, read by each new leader) and {@code history/{group.name}/run-{seq}}. With
 * credentials, the tree is creator-only, so nobody without them can plant a request.
 */
final class JobRequests {

	private final CuratorFramework client;

	final String root;

	final String requests;

	final String answers;

	final String paused;

	final String history;

	JobRequests(CuratorFramework client, String latchPath) {
		this.client = client;
		this.root = latchPath + ".jobs";
		this.requests = this.root + "/requests";
		this.answers = this.root + "/answers";
		this.paused = this.root + "/paused";
		this.history = this.root + "/history";
	}

	/** At most this many trace context fields, each line at most this long, are read from a request. */
	static final int TRACE_FIELDS = 8;

	static final int TRACE_LINE = 512;

	/** A request read from its znode; {@code trace}: the asker's trace context fields (empty without). */
	record Request(String node, int version, String action, JobKey job, String from, Map<String, String> trace) {

		String answerNode(String answers) {
			return answers + this.node.substring(this.node.lastIndexOf('/'));
		}

	}

	void ensure() throws Exception {
		OwnedPaths.ensure(this.client, this.requests);
		OwnedPaths.ensure(this.client, this.answers);
		OwnedPaths.ensure(this.client, this.paused);
		OwnedPaths.ensure(this.client, this.history);
	}

	/**
	 * Create a request; the path of its znode.
	 * @param trace the asker's trace context fields (a W3C {@code traceparent}, say), so the leader's run
	 * continues the asker's trace; empty for none. Fields that would not read back as one line are left out.
	 */
	String submit(String action, JobKey job, String from, Map<String, String> trace) throws Exception {
		ensure();
		StringBuilder data = new StringBuilder(action + "\n" + job.getGroup() + "\n" + job.getName() + "\n" + from);
		trace.entrySet().stream().limit(TRACE_FIELDS).forEach((field) -> {
			String line = field.getKey() + "=" + field.getValue();
			if (!field.getKey().isEmpty() && field.getKey().indexOf('=') < 0 && line.indexOf('\n') < 0
					&& line.length() <= TRACE_LINE) {
				data.append('\n').append(line);
			}
		});
		String text = data.toString();
		return this.client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
			.forPath(this.requests + "/r-", text.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Wait for the answer to a request; on timeout withdraw it: if the withdrawal wins, nothing was
	 * done, otherwise the leader consumed it and its answer is there.
	 */
	JobAnswer await(String request, Duration timeout, JobKey job) throws Exception {
		String answer = this.answers + request.substring(request.lastIndexOf('/'));
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() - deadline < 0) {
			JobAnswer found = take(answer);
			if (found != null) {
				return found;
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
		}
		try {
			this.client.delete().withVersion(0).forPath(request);
			return new JobAnswer(JobAnswer.Status.TIMEOUT, "No answer from the leader for " + job + " within " + timeout
					+ ": the request " + request + " was withdrawn and nothing was done.");
		}
		catch (KeeperException.NoNodeException ex) {
			// consumed meanwhile: the answer was created in the same transaction
			JobAnswer found = take(answer);
			return (found != null) ? found : new JobAnswer(JobAnswer.Status.TIMEOUT,
					"The request " + request + " for " + job + " was consumed, but its answer is gone.");
		}
	}

	private @Nullable JobAnswer take(String answer) throws Exception {
		try {
			byte[] data = this.client.getData().forPath(answer);
			try {
				this.client.delete().forPath(answer);
			}
			catch (KeeperException.NoNodeException ex) {
				// deleted by the leader's clean-up
			}
			return decode(data);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	/** Read a request; {@code null} when it is gone or malformed (then the reason is in the node name list). */
	@Nullable Request read(String child) throws Exception {
		String node = this.requests + "/" + child;
		org.apache.zookeeper.data.Stat stat = new org.apache.zookeeper.data.Stat();
		byte[] data;
		try {
			data = this.client.getData().storingStatIn(stat).forPath(node);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
		String[] lines = new String(data, StandardCharsets.UTF_8).split("\n", -1);
		if (lines.length < 3) {
			return new Request(node, stat.getVersion(), "", JobKey.jobKey("?", "?"), "?", Map.of());
		}
		return new Request(node, stat.getVersion(), lines[0], JobKey.jobKey(lines[2], lines[1]),
				(lines.length > 3) ? lines[3] : "?", trace(lines));
	}

	/** The trace context lines after the first four, bounded; a request without them (an older asker's) has none. */
	private static Map<String, String> trace(String[] lines) {
		Map<String, String> trace = new LinkedHashMap<>();
		for (int i = 4; i < lines.length && trace.size() < TRACE_FIELDS; i++) {
			int equals = lines[i].indexOf('=');
			if (equals > 0 && lines[i].length() <= TRACE_LINE) {
				trace.put(lines[i].substring(0, equals), lines[i].substring(equals + 1));
			}
		}
		return trace;
	}

	String pausedNode(JobKey job) {
		return this.paused + "/" + encode(job);
	}

	String historyNode(JobKey job) {
		return this.history + "/" + encode(job);
	}

	static String encode(JobKey job) {
		return java.net.URLEncoder.encode(job.toString(), StandardCharsets.UTF_8);
	}

	/** Line form of an answer kept in the answer znode. */
	static String encode(JobAnswer answer) {
		return answer.status().name() + "\n" + answer.message();
	}

	static JobAnswer decode(byte[] data) {
		String text = new String(data, java.nio.charset.StandardCharsets.UTF_8);
		int newline = text.indexOf('\n');
		try {
			return new JobAnswer(JobAnswer.Status.valueOf(text.substring(0, Math.max(newline, 0))), text.substring(newline + 1));
		}
		catch (IllegalArgumentException ex) {
			return new JobAnswer(JobAnswer.Status.REFUSED, "unreadable answer from the leader");
		}
	}

}
