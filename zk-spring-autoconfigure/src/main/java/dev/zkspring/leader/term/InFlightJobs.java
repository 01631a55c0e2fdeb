package dev.zkspring.leader.term;

import java.lang.reflect.Field;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.jspecify.annotations.Nullable;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.TriggerKey;

import dev.zkspring.client.OwnedPaths;

/**
 * Executions of jobs that request recovery ({@link JobDetail#requestsRecovery()}), kept in ZooKeeper
 * while they run ({@code {latch}.in-flight/{epoch}-{fire instance}}): created in the transaction that
 * records the firing's fire time (so fenced by the leadership), deleted when the execution ends. A
 * firing whose fire time was recorded but that did not start because the leadership ended meanwhile
 * leaves such a record too (marked {@code missed}), for any job, so the next leader runs it once
 * ({@link InFlightRecovery}). Which record belongs to which execution or recovery is kept here, in
 * memory, never in job data: a job's data cannot name a node for the gate to delete.
 */
public final class InFlightJobs {

	static final String MISSED = "missed";

	private static final Log logger = LogFactory.getLog(InFlightJobs.class);

	private final CuratorFramework client;

	private final String latchPath;

	private final String root;

	/** By fire instance id: the record created for an execution that runs here. */
	private final Map<String, String> records = new ConcurrentHashMap<>();

	/** By trigger: the record each recovery trigger scheduled here recovers. */
	private final Map<TriggerKey, Recovery> recoveries = new ConcurrentHashMap<>();

	InFlightJobs(CuratorFramework client, String latchPath) {
		this.client = client;
		this.latchPath = latchPath;
		this.root = latchPath + ".in-flight";
	}

	String root() {
		return this.root;
	}

	/**
	 * The operations to commit with the firing's fire-time record: create this execution's record (when
	 * its job requests recovery) and delete the record a recovery trigger recovers; none for others.
	 */
	Starting starting(long epoch, JobExecutionContext context) throws Exception {
		Recovery recovery = this.recoveries.get(context.getTrigger().getKey());
		boolean keep = context.getJobDetail().requestsRecovery();
		if (!keep && recovery == null) {
			return new Starting(List.of(), null, null);
		}
		List<CuratorOp> operations = new ArrayList<>();
		String node = null;
		if (keep) {
			OwnedPaths.ensure(this.client, this.root);
			node = node(epoch, context);
			operations.add(this.client.transactionOp().create().forPath(node, data(context, false)));
		}
		if (recovery != null) {
			if (!recovery.missed()) {
				markRecovering(context);
			}
			operations.add(this.client.transactionOp().delete().forPath(recovery.node()));
		}
		return new Starting(operations, node, recovery);
	}

	/** The firing committed and starts here: its record goes when it ends. */
	void started(JobExecutionContext context, Starting starting) {
		if (starting.node() != null) {
			this.records.put(context.getFireInstanceId(), starting.node());
		}
		if (starting.recovery() != null) {
			this.recoveries.remove(context.getTrigger().getKey(), starting.recovery());
		}
	}

	/**
	 * The firing's fire time committed, but the leadership ended before it started: leave a record for
	 * the next leader to run it once — the one created with the fire time for a job requesting recovery,
	 * else a {@code missed} record, fenced by the ended term (refused once a successor has claimed).
	 */
	void notStarted(Term term, JobExecutionContext context, Starting starting, long scheduledFireTimeMillis) {
		TriggerKey trigger = context.getTrigger().getKey();
		if (starting.recovery() != null) {
			this.recoveries.remove(trigger, starting.recovery());
		}
		String what = "Fire time " + new Date(scheduledFireTimeMillis) + " of trigger " + trigger;
		if (starting.node() != null) {
			logger.info(what + " was recorded, but leadership of " + this.latchPath + " ended before it started: "
					+ "its in-flight record " + starting.node() + " stays for the next leader to re-run it once");
			return;
		}
		String node = node(term.epoch(), context);
		try {
			OwnedPaths.ensure(this.client, this.root);
			this.client.transaction().forOperations(
					this.client.transactionOp().check().withVersion(term.version()).forPath(this.latchPath),
					this.client.transactionOp().create().forPath(node, data(context, true)));
			logger.info(what + " was recorded, but leadership of " + this.latchPath + " ended before it started: the "
					+ "next leader runs it once (" + node + ")");
		}
		catch (Exception ex) {
			logger.warn(what + " was recorded, but leadership of " + this.latchPath + " ended before it started and "
					+ "another leader claimed before it could be handed on: that fire time does not run (" + ex + ")");
		}
	}

	/** The execution ended (or failed) here: its record goes. */
	public void completed(JobExecutionContext context) {
		String node = this.records.remove(context.getFireInstanceId());
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

	/** A recovery trigger scheduled on a grant, and the record it recovers. */
	void recovering(TriggerKey trigger, Recovery recovery) {
		this.recoveries.put(trigger, recovery);
	}

	private String node(long epoch, JobExecutionContext context) {
		return this.root + "/" + epoch + "-" + URLEncoder.encode(context.getFireInstanceId(), StandardCharsets.UTF_8);
	}

	private static byte[] data(JobExecutionContext context, boolean missed) throws Exception {
		JobKey job = context.getJobDetail().getKey();
		TriggerKey trigger = context.getTrigger().getKey();
		List<String> fields = new ArrayList<>(List.of(context.getScheduler().getSchedulerName(),
				context.getFireInstanceId(), job.getName(), job.getGroup(), trigger.getName(), trigger.getGroup(),
				Long.toString(context.getFireTime().getTime()), Long.toString(context.getScheduledFireTime().getTime())));
		if (missed) {
			fields.add(MISSED);
		}
		return String.join("\n", fields).getBytes(StandardCharsets.UTF_8);
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

	/** What a firing commits with its fire time: the operations, its own record, the record it recovers. */
	record Starting(List<CuratorOp> operations, @Nullable String node, @Nullable Recovery recovery) {
	}

	/** The record a recovery trigger recovers, and whether it is a missed fire time (not a re-run). */
	record Recovery(String node, boolean missed) {
	}

}
