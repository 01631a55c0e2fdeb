package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.StdSchedulerFactory;

import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;

import static org.awaitility.Awaitility.await;

/**
 * Leader-gated Quartz schedulers on one latch for the gate's tests: each has a job {@code recoverable}
 * (requests recovery) and a job {@code plain}, both recording their runs in {@link #runs}. Registered
 * as an extension on an instance field, it closes its schedulers after each test.
 */
final class GatedQuartz implements AutoCloseable, AfterEachCallback {

	/** Each run: "{instance} fresh|recovering {job} {scheduled fire time}". */
	static final List<String> runs = new CopyOnWriteArrayList<>();

	final String latchPath;

	private final List<Instance> instances = new ArrayList<>();

	GatedQuartz() {
		this("/leader");
	}

	GatedQuartz(String root) {
		this.latchPath = root + "/gate-" + UUID.randomUUID();
		runs.clear();
	}

	/**
	 * Start an instance: its scheduler, what the application registers (listeners before the gate's, as
	 * Spring's factory does), the gate, and its election; the first one started leads.
	 */
	Instance start(String id, CuratorFramework client, Duration drainTimeout, Setup application)
			throws Exception {
		ZkLeaderElection election = new ZkLeaderElection(client, this.latchPath, () -> id, drainTimeout, Duration.ZERO);
		Properties properties = new Properties();
		properties.setProperty("org.quartz.scheduler.instanceName", "gate-" + id + "-" + UUID.randomUUID());
		properties.setProperty("org.quartz.threadPool.threadCount", "2");
		properties.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
		Scheduler scheduler = new StdSchedulerFactory(properties).getScheduler();
		Instance instance = new Instance(id, election, scheduler, client);
		this.instances.add(instance);
		scheduler.addJob(JobBuilder.newJob(RunJob.class).withIdentity("recoverable").usingJobData("id", id)
			.requestRecovery().storeDurably().build(), false);
		scheduler.addJob(JobBuilder.newJob(RunJob.class).withIdentity("plain").usingJobData("id", id)
			.storeDurably().build(), false);
		application.prepare(scheduler);
		new SchedulerGate(scheduler, election, LeaderInternals::records, RevokePolicy.STANDBY).attach();
		election.start();
		if (this.instances.size() == 1) {
			await().atMost(Duration.ofSeconds(5)).until(() -> election.isLeader() && scheduler.isStarted());
		}
		else {
			await().atMost(Duration.ofSeconds(5)).until(() -> election.participants().size() == this.instances.size());
		}
		return instance;
	}

	static long count(String prefix) {
		return runs.stream().filter((run) -> run.startsWith(prefix)).count();
	}

	@Override
	public void afterEach(ExtensionContext context) {
		close();
	}

	@Override
	public void close() {
		for (Instance instance : this.instances) {
			try {
				instance.scheduler().shutdown(false);
			}
			catch (SchedulerException ex) {
				// already down
			}
			instance.election().stop();
		}
	}

	record Instance(String id, ZkLeaderElection election, Scheduler scheduler, CuratorFramework client) {
	}

	/** What the application registers before the gate attaches: listeners, triggers. */
	@FunctionalInterface
	interface Setup {

		Setup NONE = (scheduler) -> {
		};

		void prepare(Scheduler scheduler) throws SchedulerException;

	}

	public static class RunJob implements Job {

		private String command;

		/** A bean property Quartz's job factories set from job data of that name. */
		public void setCommand(String command) {
			this.command = command;
		}

		@Override
		public void execute(JobExecutionContext context) {
			if (this.command != null) {
				runs.add("command " + this.command);
			}
			var data = context.getMergedJobDataMap();
			// a run for an earlier firing (a recovery) names that firing's scheduled fire time
			String original = data.getString(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_SCHEDULED_FIRETIME_IN_MILLISECONDS);
			runs.add(data.getString("id") + (context.isRecovering() ? " recovering " : " fresh ")
					+ context.getJobDetail().getKey().getName() + " "
					+ ((original != null) ? original : Long.toString(context.getScheduledFireTime().getTime())));
		}

	}

}
