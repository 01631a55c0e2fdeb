package dev.zkspring.leader;

import java.io.FileWriter;
import java.io.IOException;
import java.io.Writer;
import java.time.Duration;
import java.util.Date;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

import org.springframework.aop.framework.ProxyFactory;

import dev.zkspring.client.SessionLease;
import dev.zkspring.leader.quartz.SchedulerGate;

/**
 * One instance for the multi-process freeze test, started in its own JVM from the test classpath:
 * a leader-gated Quartz job on a 200 ms grid shared by every instance (fire times are multiples of
 * 200 ms of wall-clock time), journalling each run as {@code id epoch fireTime start end} (ms).
 * Arguments: connect string, latch path, participant id, journal file, session timeout (ms).
 */
public final class FrozenLeaderMain {

	static final long PERIOD_MILLIS = 200;

	static final long WORK_MILLIS = 80;

	private static Writer journal;

	private static String id;

	private FrozenLeaderMain() {
	}

	public static void main(String[] args) throws Exception {
		id = args[2];
		journal = new FileWriter(args[3], true);
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(args[0])
			.sessionTimeoutMs(Integer.parseInt(args[4]))
			.connectionTimeoutMs(2_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		client.start();
		client.blockUntilConnected();
		SessionLease lease = SessionLease.start(client);
		ZkLeaderElection election = new ZkLeaderElection(client, lease, args[1], () -> id, Duration.ofSeconds(1),
				Duration.ZERO);
		Properties properties = new Properties();
		properties.setProperty("org.quartz.scheduler.instanceName", "freeze-" + id);
		properties.setProperty("org.quartz.threadPool.threadCount", "2");
		properties.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
		Scheduler scheduler = new StdSchedulerFactory(properties).getScheduler();
		new SchedulerGate(scheduler, election, ZkLeaderElection::records, RevokePolicy.STANDBY).attach();
		long now = System.currentTimeMillis();
		Date first = new Date((now / PERIOD_MILLIS + 1) * PERIOD_MILLIS);
		scheduler.scheduleJob(JobBuilder.newJob(JournalJob.class).withIdentity("journal").build(),
				TriggerBuilder.newTrigger()
					.withIdentity("journal")
					.startAt(first)
					.withSchedule(SimpleScheduleBuilder.simpleSchedule()
						.withIntervalInMilliseconds(PERIOD_MILLIS)
						.repeatForever())
					.build());
		election.start();
		// a @LeaderOnly method every instance calls every 20 ms, as a @Scheduled one would be
		Ticker ticker = leaderOnly(new Ticker(election), election);
		Executors.newScheduledThreadPool(2).scheduleAtFixedRate(ticker::tick, 0, 20, TimeUnit.MILLISECONDS);
		System.out.println("READY " + client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs());
		System.out.flush();
		Thread.sleep(Long.MAX_VALUE);
	}

	static Ticker leaderOnly(Ticker target, ZkLeaderElection election) {
		ProxyFactory factory = new ProxyFactory(target);
		factory.setProxyTargetClass(true);
		factory.addAdvisor(new LeaderOnlyAdvisor(new LeaderOnlyInterceptor(() -> election)));
		return (Ticker) factory.getProxy();
	}

	static synchronized void write(String line) throws IOException {
		journal.write(line + "\n");
		journal.flush();
	}

	/** The leader-only work: short, journalled as instance {@code id:call} with the epoch it saw. */
	public static class Ticker {

		private final ZkLeaderElection election;

		Ticker(ZkLeaderElection election) {
			this.election = election;
		}

		@LeaderOnly
		public void tick() {
			long start = System.currentTimeMillis();
			long epoch = this.election.epoch();
			try {
				write(id + ":call " + epoch + " -1 " + start + " " + System.currentTimeMillis());
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

	/** Works for a while and journals the run; never run twice at once per instance. */
	@org.quartz.DisallowConcurrentExecution
	public static class JournalJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
			long start = System.currentTimeMillis();
			try {
				Thread.sleep(WORK_MILLIS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			try {
				write(id + " " + LeaderJobs.epoch(context) + " " + context.getScheduledFireTime().getTime() + " "
						+ start + " " + System.currentTimeMillis());
			}
			catch (IOException ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

}
