package dev.zkspring.leader.quartz;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;
import org.quartz.Job;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;

import dev.zkspring.client.OwnedPaths;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.term.LeaderRecords;

/**
 * On a grant, the other half of {@link RuntimeTriggers}: schedules the triggers previous leaders
 * recorded at runtime, and drops those whose record another leader removed.
 */
final class TriggerRestore {

	private static final Log logger = LogFactory.getLog(RuntimeTriggers.class);

	private final Scheduler scheduler;

	private final ZkLeaderElection election;

	/** The records each election keeps beside its latch node, each write fenced by its leadership. */
	private final Function<ZkLeaderElection, LeaderRecords> recordsOf;

	private final String root;

	/** Triggers of this scheduler with a record, shared with {@link RuntimeTriggers}. */
	private final Set<TriggerKey> mirrored;

	private final boolean jsonPresent;

	private Map<String, Class<? extends Job>> declaredJobClasses() throws SchedulerException {
		Map<String, Class<? extends Job>> classes = new HashMap<>();
		for (JobKey key : this.scheduler.getJobKeys(GroupMatcher.anyJobGroup())) {
			JobDetail job = this.scheduler.getJobDetail(key);
			if (job != null) {
				classes.put(job.getJobClass().getName(), job.getJobClass());
			}
		}
		return classes;
	}

	TriggerRestore(Scheduler scheduler, ZkLeaderElection election, Function<ZkLeaderElection, LeaderRecords> recordsOf,
			String root, Set<TriggerKey> mirrored, boolean jsonPresent) {
		this.scheduler = scheduler;
		this.election = election;
		this.recordsOf = recordsOf;
		this.root = root;
		this.mirrored = mirrored;
		this.jsonPresent = jsonPresent;
	}

	/**
	 * Schedule each recorded trigger this scheduler lacks (adding its job when recorded and absent), and
	 * drop mirrored triggers whose record another leader removed. A record that cannot be used is named
	 * in a warning and skipped.
	 */
	void run() {
		if (!this.jsonPresent) {
			return;
		}
		try {
			CuratorFramework client = records().client();
			OwnedPaths.ensure(client, this.root);
			Set<TriggerKey> recorded = new HashSet<>();
			Map<String, Class<? extends Job>> declared = declaredJobClasses();
			for (String name : client.getChildren().forPath(this.root)) {
				TriggerKey key = restore(client, this.root + "/" + name, declared);
				if (key != null) {
					recorded.add(key);
					this.mirrored.add(key);
				}
			}
			for (TriggerKey key : Set.copyOf(this.mirrored)) {
				if (!recorded.contains(key)) {
					this.mirrored.remove(key);
					this.scheduler.unscheduleJob(key);
					logger.info("Trigger " + key + " was unscheduled by another leader of " + this.election.latchPath());
				}
			}
		}
		catch (Exception ex) {
			logger.warn("Could not read the triggers scheduled at runtime from " + this.root
					+ "; they do not run on this leader: " + ex);
		}
	}

	/**
	 * A record is data anyone with write access may have written (or planted before {@code repair-acls}
	 * adopted it): it may only schedule a job class of a job this application declared, and its data may
	 * not name a bean property of that class, which Quartz's and Spring's job factories would set.
	 */
	private @Nullable TriggerKey restore(CuratorFramework client, String node, Map<String, Class<? extends Job>> declared)
			throws Exception {
		TriggerRecord.Decoded decoded;
		try {
			decoded = TriggerRecord.decode(client.getData().forPath(node), (className) -> {
				Class<? extends Job> type = declared.get(className);
				if (type == null) {
					throw new IllegalArgumentException("job class " + className
							+ " is not the class of a job this application declared");
				}
				return type;
			});
		}
		catch (KeeperException.NoNodeException ex) {
			return null;
		}
		catch (IllegalArgumentException ex) {
			logger.warn("Skipped the trigger record " + node + ": " + ex.getMessage() + ". Declare a job of that class on "
					+ "every instance, or delete the znode (the trigger is then gone); the other triggers run.");
			return null;
		}
		Trigger trigger = decoded.trigger();
		JobDetail existing = this.scheduler.getJobDetail(trigger.getJobKey());
		JobDetail job = (existing != null) ? existing : decoded.job();
		String property = (job != null) ? JobProperties.namedBy(job.getJobClass(), trigger.getJobDataMap(),
				(existing == null) ? job.getJobDataMap() : null) : null;
		if (property != null) {
			logger.warn("Skipped the trigger record " + node + ": its data key '" + property + "' names a property of job "
					+ "class " + job.getJobClass().getName() + ", which Quartz's job factory would set from it. Read such "
					+ "data from the JobDataMap under another key, or delete the znode; the other triggers run.");
			return null;
		}
		try {
			if (this.scheduler.checkExists(trigger.getKey())) {
				return trigger.getKey();
			}
			if (this.scheduler.checkExists(trigger.getJobKey()) || decoded.job() == null) {
				this.scheduler.scheduleJob(trigger);
			}
			else {
				this.scheduler.scheduleJob(decoded.job(), trigger);
			}
			logger.info("Scheduled trigger " + trigger.getKey() + " of job " + trigger.getJobKey() + " from " + node
					+ ", scheduled at runtime by a previous leader");
			return trigger.getKey();
		}
		catch (SchedulerException ex) {
			logger.warn("Skipped the trigger record " + node + ": " + ex.getMessage() + ". Define job "
					+ trigger.getJobKey() + " on every instance, or delete the znode; the other triggers run.");
			return null;
		}
	}

	/** The records of this restore's election, each write fenced by its leadership. */
	private LeaderRecords records() {
		return this.recordsOf.apply(this.election);
	}

}
