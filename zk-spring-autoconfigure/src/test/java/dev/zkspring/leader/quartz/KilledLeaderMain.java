package dev.zkspring.leader.quartz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.impl.StdSchedulerFactory;

import dev.zkspring.client.SessionLease;
import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.LeaderJobs;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;

/**
 * The leader for the kill -9 recovery test, started in its own JVM from the test classpath: it leads,
 * starts a job whose {@code JobDetail} requests recovery, journals {@code started {epoch} {ms}} and keeps
 * running it until killed. Arguments: connect string, latch path, journal file, session timeout (ms).
 */
public final class KilledLeaderMain {

	/** The runs of the job in the test's own JVM: {@code recovering|fresh}. */
	static final List<String> runsHere = new CopyOnWriteArrayList<>();

	static final List<Long> runStartsHere = new CopyOnWriteArrayList<>();

	private static volatile Path journal;

	private KilledLeaderMain() {
	}

	public static void main(String[] args) throws Exception {
		journal = Path.of(args[2]);
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(args[0])
			.sessionTimeoutMs(Integer.parseInt(args[3]))
			.connectionTimeoutMs(2_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		client.start();
		client.blockUntilConnected();
		ZkLeaderElection election = new ZkLeaderElection(client, SessionLease.start(client), args[1], () -> "killed",
				Duration.ofSeconds(1), Duration.ZERO);
		Scheduler scheduler = scheduler("killed");
		new SchedulerGate(scheduler, election, LeaderInternals::records, RevokePolicy.STANDBY).attach();
		election.start();
		while (!(election.isLeader() && scheduler.isStarted())) {
			Thread.sleep(10);
		}
		System.out.println("READY " + client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs());
		System.out.flush();
		scheduler.triggerJob(JobKey.jobKey("recoverable"));
		Thread.sleep(Long.MAX_VALUE);
	}

	/** A scheduler with the durable job that requests recovery, as every instance defines it. */
	static Scheduler scheduler(String name) throws Exception {
		Properties properties = new Properties();
		properties.setProperty("org.quartz.scheduler.instanceName", name);
		properties.setProperty("org.quartz.threadPool.threadCount", "2");
		properties.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
		Scheduler scheduler = new StdSchedulerFactory(properties).getScheduler();
		scheduler.addJob(JobBuilder.newJob(RecoverableJob.class).withIdentity("recoverable").requestRecovery()
			.storeDurably().build(), false);
		return scheduler;
	}

	/** In the killed JVM: journals its start and never ends; in the test's JVM: noted in {@link #runsHere}. */
	public static class RecoverableJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
			Path file = journal;
			if (file == null) {
				runStartsHere.add(System.currentTimeMillis());
				runsHere.add(context.isRecovering() ? "recovering" : "fresh");
				return;
			}
			try {
				Files.writeString(file, "started " + LeaderJobs.epoch(context) + " " + System.currentTimeMillis() + "\n",
						StandardOpenOption.APPEND);
				Thread.sleep(Long.MAX_VALUE);
			}
			catch (IOException | InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
