package dev.zkspring.leader.jobs;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.term.LeaderRecords;
import dev.zkspring.test.ZooKeeperExtension;

/**
 * An application with one leader-gated job {@code report} whose trigger never fires on its own (its
 * cron names the year 2099), so each run comes from the configuration or a request; each run is
 * recorded in {@link #runs}.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class, QuartzAutoConfiguration.class,
		ZkLeaderAutoConfiguration.class, ZkQuartzAutoConfiguration.class })
public class JobOperationsApp {

	/** A cron that fires on no day these tests run. */
	public static final String NEVER = "0 0 0 1 1 ? 2099";

	public static final List<Run> runs = new CopyOnWriteArrayList<>();

	/** When set, the job fails with this exception (its message holds a value the history must not show). */
	static volatile boolean fail;

	/** Run by the job after it recorded its run, once; {@code null} for nothing. */
	static volatile Runnable afterRun;

	/** The instances of this application a test starts, its records emptied before each test. */
	public static AppInstances instances(ZooKeeperExtension zk, String... defaults) {
		return new AppInstances(zk, JobOperationsApp.class, defaults).resetting(() -> {
			runs.clear();
			afterRun = null;
		});
	}

	@Bean
	public JobDetail report() {
		return JobBuilder.newJob(CountingJob.class).withIdentity("report").storeDurably().build();
	}

	@Bean
	public Trigger reportTrigger(JobDetail report) {
		return TriggerBuilder.newTrigger().forJob(report).withIdentity("report-trigger")
			.withSchedule(CronScheduleBuilder.cronSchedule(NEVER)).build();
	}

	public static long count(String instance) {
		return runs.stream().filter((run) -> run.instance().equals(instance)).count();
	}

	/** Write the application's configuration document in ZooKeeper. */
	public static void publish(CuratorFramework client, String application, String json) throws Exception {
		String node = "/config/" + application;
		byte[] data = json.getBytes(StandardCharsets.UTF_8);
		if (client.checkExists().forPath(node) == null) {
			client.create().creatingParentsIfNeeded().forPath(node, data);
		}
		else {
			client.setData().forPath(node, data);
		}
	}

	public static String schedule(String field, String value) {
		return "{\"zk\":{\"quartz\":{\"jobs\":{\"report\":{\"" + field + "\":\"" + value + "\"}}}}}";
	}

	/** One run: the instance, the trigger's group (zk-run-now for a requested run) and the scheduled fire time. */
	public record Run(String instance, String triggerGroup, long fireTime) {
	}

	public static class CountingJob implements Job {

		@Override
		public void execute(JobExecutionContext context) throws JobExecutionException {
			ZkLeaderElection election = (ZkLeaderElection) context.getMergedJobDataMap().get(LeaderRecords.ELECTION_KEY);
			runs.add(new Run(election.participantId(), context.getTrigger().getKey().getGroup(),
					context.getScheduledFireTime().getTime()));
			Runnable then = afterRun;
			if (then != null) {
				afterRun = null;
				then.run();
			}
			if (fail) {
				throw new JobExecutionException(new IllegalStateException("password=secret-value"));
			}
		}

	}

}
