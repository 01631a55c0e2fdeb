package dev.zkspring.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.quartz.JobKey;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.jobs.JobOperations;
import dev.zkspring.leader.term.ElectionAccess;

/**
 * Leader-gated jobs as operators run them: schedules and pauses from {@code zk.quartz.jobs.*} (applied
 * on every instance, at startup and on each configuration change), run, pause and resume requests from
 * any instance carried out once by the leader, and each job's recent runs, all kept in ZooKeeper beside
 * the group's latch node. The {@code zookeeper} endpoint's {@code jobs} section is built on it. The
 * public entry point of the {@code dev.zkspring.leader.jobs} package, which does the work.
 */
public class ZkJobs implements ApplicationListener<ZkConfigChangedEvent>, DisposableBean {

	private final JobOperations operations;

	/**
	 * Create the job operations of the application's election.
	 * @param election the application's election
	 * @param environment where {@code zk.quartz.jobs.*} is read, now and on each configuration change
	 * @param historySize how many recent runs per job are kept
	 * @param requestTimeout how long a request waits for the leader's answer
	 */
	public ZkJobs(ZkLeaderElection election, Environment environment, int historySize, Duration requestTimeout) {
		this(election, null, environment, historySize, requestTimeout);
	}

	/**
	 * Create the job operations of an application whose jobs may belong to leader groups: a request for a
	 * job of a group is carried out by that group's leader, and its pause holds across that group's handovers.
	 * @param election the application's election
	 * @param groups the leader groups of {@code zk.leader.groups}, {@code null} for none
	 * @param environment where {@code zk.quartz.jobs.*} is read, now and on each configuration change
	 * @param historySize how many recent runs per job are kept
	 * @param requestTimeout how long a request waits for the leader's answer
	 */
	public ZkJobs(ZkLeaderElection election, @Nullable ZkLeaderGroups groups, Environment environment, int historySize,
			Duration requestTimeout) {
		this.operations = new JobOperations(election, ElectionAccess.of(ZkLeaderElection.class)::records,
				(groups != null) ? groups.view() : null,
				environment, historySize, requestTimeout);
	}

	/**
	 * Carry the asker's trace context in each request: the propagation fields of the calling thread's span
	 * (dev.zkspring.observation's {@code ZkJobRequestTracing} when Micrometer Tracing is present), so a
	 * requested run continues the asker's trace on the leader; empty fields for none.
	 */
	public void setTraceContext(Supplier<Map<String, String>> fields) {
		this.operations.traceContext(fields);
	}

	/** What the Quartz gate drives: configured schedules, pauses, requests and history. */
	JobOperations operations() {
		return this.operations;
	}

	@Override
	public void onApplicationEvent(ZkConfigChangedEvent event) {
		// any key may change an entry through a placeholder (cron: ${report.cron}): bind again, apply what differs
		this.operations.configurationChanged();
	}

	/**
	 * Have the leader run, pause or resume a job, and wait (bounded) for its answer.
	 * @param group the job's group ({@code DEFAULT} for Quartz's default)
	 * @param name the job's name
	 * @param action {@code run}, {@code pause} or {@code resume}
	 * @return the answer: unknown job and no leader without asking the leader, a timeout after withdrawing
	 */
	public JobAnswer request(String group, String name, String action) {
		return this.operations.request(group, name, action);
	}

	/** Every job: group, name, schedule, paused, next fire time (on the leader), leader, refusal, last runs. */
	public List<Map<String, Object>> describe() {
		return this.operations.describe();
	}

	/**
	 * Every job of the gated scheduler, without asking ZooKeeper (cheap enough for each fleet node write): its
	 * {@code group}, {@code name} and, when it belongs to one, {@code leaderGroup}.
	 */
	public List<Map<String, Object>> jobs() {
		List<Map<String, Object>> jobs = new ArrayList<>();
		for (JobKey job : this.operations.jobKeys()) {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("group", job.getGroup());
			entry.put("name", job.getName());
			String leaderGroup = this.operations.leaderGroupOf(job);
			if (leaderGroup != null) {
				entry.put("leaderGroup", leaderGroup);
			}
			jobs.add(entry);
		}
		return jobs;
	}

	/**
	 * Write the history records of the runs that ended during the stop (without ZooKeeper, none is waited for:
	 * the instance that hosted it may have stopped first), then stop.
	 */
	@Override
	public void destroy() {
		this.operations.destroy();
	}

}
