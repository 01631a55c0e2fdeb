package dev.zkspring.leader.term;

import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.OptionalLong;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;

import dev.zkspring.client.OwnedPaths;

/**
 * On a grant, the other half of {@link InFlightJobs}: re-runs once each execution a previous leadership
 * left behind, as Quartz's JDBC store does after a crash — a one-shot trigger in
 * {@link Scheduler#DEFAULT_RECOVERY_GROUP}, with Quartz's original-trigger keys in its data. A record is
 * data anyone with write access may have written: it is used only for a job this application declared
 * and a fire time a leader recorded for its trigger (the record was committed with it); anything else
 * is skipped with a warning naming the znode.
 */
final class InFlightRecovery {

	/** A recorded fire time may lie this far in this instance's future (clocks differ between hosts). */
	static final long CLOCK_SLACK_MILLIS = 60_000;

	private static final Log logger = LogFactory.getLog(InFlightJobs.class);

	private final CuratorFramework client;

	private final InFlightJobs inFlight;

	private final FireTimes fireTimes;

	InFlightRecovery(CuratorFramework client, InFlightJobs inFlight, FireTimes fireTimes) {
		this.client = client;
		this.inFlight = inFlight;
		this.fireTimes = fireTimes;
	}

	/**
	 * Before the scheduler starts: schedule a run of each execution a leadership before {@code epoch}
	 * left behind, unless it still runs here (this instance's own earlier leadership).
	 * @param runningHere fire instance id and job key of each execution still running here
	 */
	void recover(Scheduler scheduler, long epoch, Set<String> runningHere) throws Exception {
		String root = this.inFlight.root();
		OwnedPaths.ensure(this.client, root);
		for (String name : this.client.getChildren().forPath(root)) {
			String node = root + "/" + name;
			String[] record = read(node);
			long recordEpoch = epochOf(name);
			if (record == null || recordEpoch >= epoch) {
				continue;
			}
			String problem = problem(scheduler, record);
			if (problem != null) {
				logger.warn("Skipped the in-flight record " + node + ": " + problem + ". No leader of this group wrote it: "
						+ "delete the znode.");
				continue;
			}
			JobKey jobKey = JobKey.jobKey(record[2], record[3]);
			if (runningHere.contains(record[1] + "\n" + jobKey)) {
				continue;
			}
			JobDetail job = scheduler.getJobDetail(jobKey);
			boolean missed = record.length > 8 && InFlightJobs.MISSED.equals(record[8]);
			if (!missed && !job.requestsRecovery()) {
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
			this.inFlight.recovering(key, new InFlightJobs.Recovery(node, missed));
			scheduler.scheduleJob(TriggerBuilder.newTrigger().withIdentity(key).forJob(job.getKey()).usingJobData(data)
				.startAt(new Date()).build());
			logger.info((missed ? "Running " + job.getKey() + " for fire time " + new Date(Long.parseLong(record[7]))
					+ ", which its leader (epoch " + recordEpoch + ") recorded but did not start"
					: "Re-running " + job.getKey() + ": its leader (epoch " + recordEpoch + ") ended during the execution "
							+ "fired " + new Date(Long.parseLong(record[6])) + " and the job requests recovery"));
		}
	}

	/** What makes a record unusable, or {@code null}: never a value from the record but keys and times. */
	private @Nullable String problem(Scheduler scheduler, String[] record) throws Exception {
		if (record.length < 8 || record.length > 9) {
			return "not an in-flight record";
		}
		JobKey jobKey = JobKey.jobKey(record[2], record[3]);
		if (scheduler.getJobDetail(jobKey) == null) {
			return "it names a job this application does not declare";
		}
		long fireTime;
		long scheduledFireTime;
		try {
			fireTime = Long.parseLong(record[6]);
			scheduledFireTime = Long.parseLong(record[7]);
		}
		catch (NumberFormatException ex) {
			return "its fire times are not numbers";
		}
		if (Math.max(fireTime, scheduledFireTime) > System.currentTimeMillis() + CLOCK_SLACK_MILLIS) {
			return "its fire time lies in the future";
		}
		String trigger = TriggerKey.triggerKey(record[4], record[5]).toString();
		OptionalLong recorded = this.fireTimes.last(trigger);
		if (recorded.isEmpty() || recorded.getAsLong() < scheduledFireTime) {
			return "no leader recorded that fire time for trigger " + trigger;
		}
		return null;
	}

	private String @Nullable [] read(String node) throws Exception {
		try {
			return new String(this.client.getData().forPath(node), StandardCharsets.UTF_8).split("\n", -1);
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
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
