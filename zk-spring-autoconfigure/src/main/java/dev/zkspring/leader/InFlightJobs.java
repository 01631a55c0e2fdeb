package dev.zkspring.leader;

import java.lang.reflect.Field;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;

import dev.zkspring.client.OwnedPaths;

/**
 * Executions of jobs that request recovery ({@link JobDetail#requestsRecovery()}), kept in ZooKeeper
 * while they run ({@code {latch}.in-flight/{epoch}-{fire instance}}): created in the transaction that
 * records the firing's fire time (so fenced by the leadership), deleted when the execution completes.
 * A new leader re-runs once each execution a previous leadership left behind, as Quartz's JDBC store
 * does after a crash: a one-shot trigger in {@link Scheduler#DEFAULT_RECOVERY_GROUP}, with Quartz's
 * original-trigger keys in its data and {@link JobExecutionContext#isRecovering()} true.
 */
final class InFlightJobs {

	/** Key, in an execution's merged data, of its in-flight record to delete when it completes. */
	static final String RECORD_KEY = "zk.leader.in-flight";

	/** Key, in a recovery trigger's data, of the record it recovers, deleted when the recovery starts. */
	static final String RECOVERS_KEY = "zk.leader.recovers";

	private static final Log logger = LogFactory.getLog(InFlightJobs.class);

	private final CuratorFramework client;

	private final String root;

	InFlightJobs(CuratorFramework client, String latchPath) {
		this.client = client;
		this.root = latchPath + ".in-flight";
	}

	/**
	 * The operations to commit with the firing's fire-time record: create this execution's record (when
	 * its job requests recovery) and delete the record a recovery trigger recovers; empty for others.
	 */
	List<CuratorOp> starting(long epoch, JobExecutionContext context) throws Exception {
		String recovers = context.getMergedJobDataMap().getString(RECOVERS_KEY);
		if (!context.getJobDetail().requestsRecovery() && recovers == null) {
			return List.of();
		}
		OwnedPaths.ensure(this.client, this.root);
		String node = this.root + "/" + epoch + "-" + URLEncoder.encode(context.getFireInstanceId(), StandardCharsets.UTF_8);
		JobKey job = context.getJobDetail().getKey();
		TriggerKey trigger = context.getTrigger().getKey();
		String data = String.join("\n", context.getScheduler().getSchedulerName(), context.getFireInstanceId(),
				job.getName(), job.getGroup(), trigger.getName(), trigger.getGroup(),
				Long.toString(context.getFireTime().getTime()), Long.toString(context.getScheduledFireTime().getTime()));
		CuratorOp create = this.client.transactionOp().create().forPath(node, data.getBytes(StandardCharsets.UTF_8));
		context.getMergedJobDataMap().put(RECORD_KEY, node);
		if (recovers == null) {
			return List.of(create);
		}
		markRecovering(context);
		CuratorOp delete = this.client.transactionOp().delete().forPath(recovers);
		return context.getJobDetail().requestsRecovery() ? List.of(create, delete) : List.of(delete);
	}

	/** The execution completed (or failed) here: its record goes. */
	void completed(JobExecutionContext context) {
		String node = context.getMergedJobDataMap().getString(RECORD_KEY);
		if (node == null) {
			return;
		}
		try {
			this.client.delete().guaranteed().inBackground().forPath(node);
		}
		catch (Exception ex) {
			logger.warn("Could not delete the in-flight record " + node + "; a successor may re-run "
					+ context.getJobDetail().getKey() + ": " + ex.getMessage());
		}
	}

	/**
	 * On grant, before the scheduler starts: schedule a recovery of each execution a leadership before
	 * {@code epoch} left behind, of a job this scheduler has, unless it still runs here.
	 */
	void recover(Scheduler scheduler, long epoch) throws Exception {
		OwnedPaths.ensure(this.client, this.root);
		// an execution this instance still runs (its own earlier leadership) is not re-run beside itself
		List<String> running = scheduler.getCurrentlyExecutingJobs().stream()
			.map((execution) -> execution.getFireInstanceId() + "\n" + execution.getJobDetail().getKey())
			.toList();
		for (String name : this.client.getChildren().forPath(this.root)) {
			String node = this.root + "/" + name;
			String[] record = read(node);
			long recordEpoch = epochOf(name);
			if (record == null || record.length < 8 || recordEpoch >= epoch) {
				continue;
			}
			JobKey jobKey = JobKey.jobKey(record[2], record[3]);
			if (running.contains(record[1] + "\n" + jobKey)) {
				continue;
			}
			JobDetail job = scheduler.getJobDetail(jobKey);
			if (job == null || !job.requestsRecovery()) {
				this.client.delete().forPath(node);
				continue;
			}
			TriggerKey key = TriggerKey.triggerKey("recover-" + name, Scheduler.DEFAULT_RECOVERY_GROUP);
			if (scheduler.checkExists(key)) {
				continue;
			}
			JobDataMap data = new JobDataMap();
			data.put(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_NAME, record[4]);
			data.put(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_GROUP, record[5]);
			data.put(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_FIRETIME_IN_MILLISECONDS, record[6]);
			data.put(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_SCHEDULED_FIRETIME_IN_MILLISECONDS, record[7]);
			data.put(RECOVERS_KEY, node);
			scheduler.scheduleJob(TriggerBuilder.newTrigger().withIdentity(key).forJob(job.getKey()).usingJobData(data)
				.startAt(new Date()).build());
			logger.info("Re-running " + job.getKey() + ": its leader (epoch " + recordEpoch + ") ended during the "
					+ "execution fired " + new Date(Long.parseLong(record[6])) + " and the job requests recovery");
		}
	}

	private String @Nullable [] read(String node) throws Exception {
		try {
			return new String(this.client.getData().forPath(node), StandardCharsets.UTF_8).split("\n");
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
	}

	/**
	 * Quartz's in-memory store never marks an execution as recovering; its JDBC store does, for the
	 * same one-shot trigger. Set the same flag, so jobs see {@link JobExecutionContext#isRecovering()}.
	 */
	private static void markRecovering(JobExecutionContext context) {
		try {
			Field recovering = context.getClass().getDeclaredField("recovering");
			recovering.setAccessible(true);
			recovering.setBoolean(context, true);
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			logger.debug("Could not mark the recovery of " + context.getJobDetail().getKey() + " as recovering: " + ex);
		}
	}

	private static long epochOf(String name) {
		int dash = name.indexOf('-');
		try {
			return (dash > 0) ? Long.parseLong(name.substring(0, dash)) : Long.MAX_VALUE;
		}
		catch (NumberFormatException ex) {
			return Long.MAX_VALUE;
		}
	}

}
