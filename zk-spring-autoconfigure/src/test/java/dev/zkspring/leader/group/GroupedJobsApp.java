package dev.zkspring.leader.group;

import java.util.Date;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.quartz.CronScheduleBuilder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.ScheduleBuilder;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.jobs.JobOperationsApp;
import dev.zkspring.leader.term.LeaderRecords;
import dev.zkspring.test.ZooKeeperExtension;

/**
 * An application with two leader-gated jobs, {@code alpha} and {@code beta}, meant for two leader
 * groups. With {@code test.period-millis} their triggers fire on a lattice of that period shared by all
 * instances (so a fire time means the same on each); without, they never fire on their own. Each run is
 * recorded in {@link #runs}; a run can be held by {@link #holdNextRun}.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class, QuartzAutoConfiguration.class,
		ZkLeaderAutoConfiguration.class, ZkQuartzAutoConfiguration.class })
public class GroupedJobsApp {

	public static final List<Run> runs = new CopyOnWriteArrayList<>();

	/** When set, the next run of {@code alpha} counts it down once started and waits for the second latch. */
	public static final AtomicReference<CountDownLatch[]> holdNextRun = new AtomicReference<>();

	/** The instances of this application a test starts, its records emptied before each test. */
	public static AppInstances instances(ZooKeeperExtension zk, String... defaults) {
		return new AppInstances(zk, GroupedJobsApp.class, defaults).resetting(() -> {
			runs.clear();
			holdNextRun.set(null);
		});
	}

	@Bean
	public JobDetail alpha() {
		return JobBuilder.newJob(RecordingRunJob.class).withIdentity("alpha").storeDurably().build();
	}

	@Bean
	public JobDetail beta() {
		return JobBuilder.newJob(RecordingRunJob.class).withIdentity("beta").storeDurably().build();
	}

	@Bean
	public Trigger alphaTrigger(JobDetail alpha, Environment environment) {
		return trigger(alpha, environment);
	}

	@Bean
	public Trigger betaTrigger(JobDetail beta, Environment environment) {
		return trigger(beta, environment);
	}

	private static Trigger trigger(JobDetail job, Environment environment) {
		long period = environment.getProperty("test.period-millis", Long.class, 0L);
		ScheduleBuilder<? extends Trigger> schedule = (period > 0)
				? SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(period).repeatForever()
				: CronScheduleBuilder.cronSchedule(JobOperationsApp.NEVER);
		// every instance on the same lattice: a start at a multiple of the period
		long now = System.currentTimeMillis();
		return TriggerBuilder.newTrigger().forJob(job).withIdentity(job.getKey().getName() + "-trigger")
			.startAt(new Date((period > 0) ? (now / period + 1) * period : now))
			.withSchedule(schedule).build();
	}

	public static List<Run> runs(String job) {
		return runs.stream().filter((run) -> run.job().equals(job)).toList();
	}

	public static List<Run> runs(String job, String instance) {
		return runs(job).stream().filter((run) -> run.instance().equals(instance)).toList();
	}

	/** One run: job, instance, trigger group (zk-run-now for a requested run), scheduled fire time, start and end. */
	public record Run(String job, String instance, String triggerGroup, long fireTime, long startNanos, long endNanos) {
	}

	@DisallowConcurrentExecution
	public static class RecordingRunJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
			long start = System.nanoTime();
			String job = context.getJobDetail().getKey().getName();
			ZkLeaderElection election = (ZkLeaderElection) context.getMergedJobDataMap().get(LeaderRecords.ELECTION_KEY);
			CountDownLatch[] hold = "alpha".equals(job) ? holdNextRun.getAndSet(null) : null;
			if (hold != null) {
				hold[0].countDown();
				try {
					hold[1].await(20, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			runs.add(new Run(job, election.participantId(), context.getTrigger().getKey().getGroup(),
					context.getScheduledFireTime().getTime(), start, System.nanoTime()));
		}

	}

}
