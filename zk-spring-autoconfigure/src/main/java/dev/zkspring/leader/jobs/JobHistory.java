package dev.zkspring.leader.jobs;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobKey;
import org.quartz.JobListener;
import org.quartz.TriggerKey;

import dev.zkspring.client.OwnedPaths;
import dev.zkspring.leader.ZkLeaderElection;

/**
 * The last runs of each job, kept in ZooKeeper by whichever instance ran them
 * ({@code {latch}.jobs/history/{group.name}/run-{seq}}, data: instance, scheduled fire time, start, end,
 * outcome, error class — never the error's message, which may hold values), trimmed to the newest
 * {@code size}. Written off Quartz's worker thread, so a slow ensemble delays no job.
 */
final class JobHistory implements JobListener {

	private static final Log logger = LogFactory.getLog(JobHistory.class);

	private final CuratorFramework client;

	private final JobRequests paths;

	private final ZkLeaderElection election;

	private final int size;

	private final Executor writer;

	private final Consumer<TriggerKey> ended;

	JobHistory(CuratorFramework client, JobRequests paths, ZkLeaderElection election, int size, Executor writer,
			Consumer<TriggerKey> ended) {
		this.client = client;
		this.paths = paths;
		this.election = election;
		this.size = Math.max(size, 1);
		this.writer = writer;
		this.ended = ended;
	}

	@Override
	public String getName() {
		return "zk-job-history";
	}

	@Override
	public void jobToBeExecuted(JobExecutionContext context) {
	}

	@Override
	public void jobExecutionVetoed(JobExecutionContext context) {
		this.ended.accept(context.getTrigger().getKey());
	}

	@Override
	public void jobWasExecuted(JobExecutionContext context, JobExecutionException failure) {
		this.ended.accept(context.getTrigger().getKey());
		long start = context.getFireTime().getTime();
		long end = start + Math.max(context.getJobRunTime(), 0);
		long scheduled = (context.getScheduledFireTime() != null) ? context.getScheduledFireTime().getTime() : start;
		String error = "";
		if (failure != null) {
			error = ((failure.getCause() != null) ? failure.getCause() : failure).getClass().getName();
		}
		String line = this.election.participantId() + "\n" + scheduled + "\n" + start + "\n" + end + "\n"
				+ ((failure != null) ? "FAILED" : "SUCCEEDED") + "\n" + error;
		JobKey job = context.getJobDetail().getKey();
		this.writer.execute(() -> write(job, line));
	}

	private void write(JobKey job, String line) {
		String node = this.paths.historyNode(job);
		try {
			OwnedPaths.ensure(this.client, node);
			this.client.create().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
				.forPath(node + "/run-", line.getBytes(StandardCharsets.UTF_8));
			List<String> runs = new ArrayList<>(this.client.getChildren().forPath(node));
			Collections.sort(runs);
			for (int i = 0; i < runs.size() - this.size; i++) {
				try {
					this.client.delete().forPath(node + "/" + runs.get(i));
				}
				catch (KeeperException.NoNodeException ex) {
					// trimmed by another instance
				}
			}
		}
		catch (InterruptedException ex) {
			// the application stops, and ZooKeeper is out of reach or slow: ZkJobs.destroy() gave up on the record
			Thread.currentThread().interrupt();
			logger.debug("Did not record a run of " + job + " in " + node + ": the application stopped first");
		}
		catch (Exception ex) {
			logger.warn("Could not record a run of " + job + " in " + node + ": " + ex);
		}
	}

	/** The newest {@code size} runs of a job, newest first, as the endpoint shows them. */
	List<Map<String, Object>> read(JobKey job) {
		String node = this.paths.historyNode(job);
		List<Map<String, Object>> runs = new ArrayList<>();
		try {
			List<String> children = new ArrayList<>(this.client.getChildren().forPath(node));
			children.sort(Collections.reverseOrder());
			for (String child : children) {
				if (runs.size() == this.size) {
					// a run written and not trimmed yet: the history shows the newest size, never one more
					break;
				}
				try {
					runs.add(describe(new String(this.client.getData().forPath(node + "/" + child), StandardCharsets.UTF_8)));
				}
				catch (KeeperException.NoNodeException ex) {
					// trimmed meanwhile
				}
			}
		}
		catch (KeeperException.NoNodeException ex) {
			// never ran
		}
		catch (Exception ex) {
			logger.debug("Could not read the runs of " + job + " from " + node + ": " + ex);
		}
		return runs;
	}

	static Map<String, Object> describe(String line) {
		String[] fields = line.split("\n", -1);
		Map<String, Object> run = new LinkedHashMap<>();
		if (fields.length < 6) {
			run.put("unreadable", true);
			return run;
		}
		run.put("instance", fields[0]);
		run.put("fireTime", instant(fields[1]));
		run.put("start", instant(fields[2]));
		run.put("end", instant(fields[3]));
		run.put("outcome", fields[4]);
		if (!fields[5].isEmpty()) {
			run.put("error", fields[5]);
		}
		return run;
	}

	private static String instant(String millis) {
		try {
			return Instant.ofEpochMilli(Long.parseLong(millis)).toString();
		}
		catch (NumberFormatException ex) {
			return "?";
		}
	}

}
