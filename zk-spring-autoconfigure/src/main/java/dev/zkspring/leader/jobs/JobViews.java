package dev.zkspring.leader.jobs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.quartz.CronTrigger;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;

import dev.zkspring.leader.ZkLeaderElection;

/**
 * What the endpoint shows of each job: its schedule as this instance has it, whether it is paused (by
 * the configuration or by an operator, read from ZooKeeper so a follower knows too), its leader group
 * (when in one), the next fire time where this instance leads it, its leader (the group's), a refused
 * configuration entry, and the last runs.
 */
final class JobViews {

	private final JobOperations jobs;

	private final JobRequests requests;

	private final JobHistory history;

	JobViews(JobOperations jobs, JobRequests requests, JobHistory history) {
		this.jobs = jobs;
		this.requests = requests;
		this.history = history;
	}

	List<Map<String, Object>> describe(List<Scheduler> schedulers) {
		List<Map<String, Object>> all = new ArrayList<>();
		for (Scheduler scheduler : schedulers) {
			for (JobKey job : JobOperations.jobKeys(scheduler)) {
				ZkLeaderElection election = this.jobs.electionOf(job);
				String leader = election.leaderId().orElse(null);
				boolean leading = election.isLeader();
				Map<String, Object> view = new LinkedHashMap<>();
				view.put("group", job.getGroup());
				view.put("name", job.getName());
				String leaderGroup = this.jobs.leaderGroupOf(job);
				if (leaderGroup != null) {
					view.put("leaderGroup", leaderGroup);
				}
				List<? extends Trigger> triggers = triggers(scheduler, job);
				view.put("schedule", triggers.stream().map(JobViews::schedule).toList());
				view.put("paused", paused(job));
				if (leading) {
					triggers.stream().map(Trigger::getNextFireTime).filter(java.util.Objects::nonNull).min(java.util.Date::compareTo)
						.ifPresent((next) -> view.put("nextFireTime", next.toInstant().toString()));
				}
				view.put("leader", leader);
				String refusal = this.jobs.refusal(job);
				if (refusal != null) {
					view.put("refused", refusal);
				}
				view.put("lastRuns", this.history.read(job));
				all.add(view);
			}
		}
		return all;
	}

	private boolean paused(JobKey job) {
		if (this.jobs.pausedByConfiguration(job) != null) {
			return true;
		}
		try {
			return this.jobs.recordsOf(job).client().checkExists().forPath(this.requests.pausedNode(job)) != null;
		}
		catch (Exception ex) {
			return false;
		}
	}

	private static List<? extends Trigger> triggers(Scheduler scheduler, JobKey job) {
		try {
			return scheduler.getTriggersOfJob(job).stream()
				.filter((trigger) -> !RequestConsumer.RUN_GROUP.equals(trigger.getKey().getGroup()))
				.toList();
		}
		catch (SchedulerException ex) {
			return List.of();
		}
	}

	private static String schedule(Trigger trigger) {
		if (trigger instanceof CronTrigger cron) {
			return "cron " + cron.getCronExpression();
		}
		if (trigger instanceof SimpleTrigger simple) {
			return "every " + java.time.Duration.ofMillis(simple.getRepeatInterval());
		}
		return trigger.getClass().getSimpleName();
	}

}
