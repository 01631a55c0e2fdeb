package dev.zkspring.jobs;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;

import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.group.GroupBalancer;
import dev.zkspring.leader.group.GroupElections;
import dev.zkspring.leader.term.ElectionAccess;

/**
 * The named leader groups of {@code zk.leader.groups}: one election per group, so different instances
 * lead different groups, each group's Quartz jobs and {@link dev.zkspring.leader.LeaderOnly @LeaderOnly(group = ...)} calls
 * running on its leader only. Balances the groups over the participants (see {@link GroupBalancer}).
 */
public final class ZkLeaderGroups implements SmartLifecycle, ApplicationEventPublisherAware {

	private final Map<String, ZkLeaderElection> elections;

	private final Map<String, String> groupOfJob;

	private final GroupBalancer balancer;

	private volatile boolean running;

	/**
	 * Create the groups; their elections join when started.
	 * @param elections by group name, each on a latch path of its own
	 * @param jobs the Quartz job names of each group, by group name (a job in at most one group)
	 * @param maxGroups how many groups an instance leads at most while another participant leads fewer
	 * @param hold how long a leader keeps a group it took before it may hand it over to balance
	 */
	public ZkLeaderGroups(Map<String, ZkLeaderElection> elections, Map<String, List<String>> jobs, int maxGroups,
			Duration hold) {
		this.elections = Collections.unmodifiableMap(new LinkedHashMap<>(elections));
		Map<String, String> byJob = new LinkedHashMap<>();
		jobs.forEach((group, names) -> names.forEach((name) -> byJob.put(name, group)));
		this.groupOfJob = Collections.unmodifiableMap(byJob);
		this.balancer = new GroupBalancer(this.elections, ElectionAccess.of(ZkLeaderElection.class)::stepBack, maxGroups,
				hold);
	}

	/** The elections by group name. */
	public Map<String, ZkLeaderElection> elections() {
		return this.elections;
	}

	/** The group a Quartz job (by its name) belongs to; empty for a job of the application's own election. */
	public Optional<String> groupOf(String jobName) {
		return Optional.ofNullable(this.groupOfJob.get(jobName));
	}

	/** The Quartz job names named in some group, each with its group. */
	public Map<String, String> jobGroups() {
		return this.groupOfJob;
	}

	/** The election of a group, {@code null} when no such group is configured. */
	@Nullable ZkLeaderElection election(String group) {
		return this.elections.get(group);
	}

	/** The groups' elections and the group of each job, for the job operations. */
	GroupElections view() {
		return new GroupElections(this.elections, this.groupOfJob);
	}

	@Override
	public void setApplicationEventPublisher(ApplicationEventPublisher publisher) {
		this.elections.values().forEach((election) -> election.setApplicationEventPublisher(publisher));
	}

	@Override
	public void start() {
		this.elections.values().forEach(ZkLeaderElection::start);
		this.balancer.start();
		this.running = true;
	}

	/**
	 * Stop every group's election at once, each on a thread of its own, so a shutdown waits one drain timeout
	 * at most, not one per group: a parallel stream would run as many as the common pool has threads (one on
	 * a 2-core machine, fewer when the application keeps it busy).
	 */
	@Override
	public void stop() {
		this.balancer.stop();
		List<Thread> stopping = new ArrayList<>();
		this.elections.forEach((group, election) -> {
			Thread thread = new Thread(election::stop, "zk-leader-group-stop-" + group);
			thread.start();
			stopping.add(thread);
		});
		boolean interrupted = false;
		for (Thread thread : stopping) {
			while (thread.isAlive()) {
				try {
					thread.join();
				}
				catch (InterruptedException ex) {
					interrupted = true;
				}
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return ZkLeaderElection.PHASE;
	}

}
