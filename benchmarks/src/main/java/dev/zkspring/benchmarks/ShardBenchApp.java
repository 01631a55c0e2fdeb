package dev.zkspring.benchmarks;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkCrashDetectionAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.leader.ShardContext;
import dev.zkspring.leader.ZkLeaderElection;

/**
 * The application of issue 40's rows: one sharded job, {@code report} ({@code zk.quartz.jobs.report.shards}),
 * firing on a lattice of {@code bench.period-millis} shared by every instance, requesting recovery. A shard's
 * work sleeps {@code bench.work-millis} ({@code -1}: until the JVM ends, for the instance that is killed);
 * with {@code bench.one-at-a-time=true} an instance runs one shard at a time, as work bound by the
 * instance's capacity (its CPU, a pool of one connection) would. Every shard run is recorded in {@link #runs}
 * and, with {@code bench.print=true}, printed as {@code RUNNING fireTime index}.
 */
@SpringBootConfiguration
@ImportAutoConfiguration({ PropertyPlaceholderAutoConfiguration.class, ZkAutoConfiguration.class,
		QuartzAutoConfiguration.class, ZkLeaderAutoConfiguration.class, ZkQuartzAutoConfiguration.class,
		ZkCrashDetectionAutoConfiguration.class })
class ShardBenchApp {

	static final Queue<Run> runs = new ConcurrentLinkedQueue<>();

	static final String APP = "bench-shards";

	@Bean
	JobDetail report() {
		return JobBuilder.newJob(WorkJob.class).withIdentity("report").storeDurably().requestRecovery().build();
	}

	@Bean
	Trigger reportTrigger(JobDetail report, Environment environment) {
		long period = environment.getRequiredProperty("bench.period-millis", Long.class);
		long now = System.currentTimeMillis();
		return TriggerBuilder.newTrigger().forJob(report).withIdentity("report-trigger")
			.startAt(new Date((now / period + 1) * period))
			.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(period).repeatForever())
			.build();
	}

	@Bean
	Capacity capacity(Environment environment) {
		return new Capacity(environment.getProperty("bench.one-at-a-time", Boolean.class, false),
				environment.getRequiredProperty("bench.work-millis", Long.class),
				environment.getProperty("bench.print", Boolean.class, false));
	}

	/** What one instance can do at once, and how long a shard's work takes there. */
	record Capacity(boolean oneAtATime, long workMillis, boolean print, Semaphore permits) {

		Capacity(boolean oneAtATime, long workMillis, boolean print) {
			this(oneAtATime, workMillis, print, new Semaphore(1));
		}

	}

	/** One shard run: the instance, the fire time, the shard, whether a recovery, its start and end (ms). */
	record Run(String instance, long fireTime, int index, boolean recovering, long start, long end) {
	}

	/** Start an instance of the application {@code app} (its latch and shards apart from other runs'). */
	static ConfigurableApplicationContext start(String connectString, String app, String id, String... properties) {
		List<String> all = new ArrayList<>(List.of("zk.connect=" + connectString, "spring.application.name=" + app,
				"spring.main.banner-mode=off", "zk.leader.id=" + id, "spring.quartz.scheduler-name=" + id,
				"zk.config.enabled=false", "zk.session-timeout=" + CrashBenchmarks.SESSION_TIMEOUT_MS + "ms",
				"spring.cloud.zookeeper.enabled=false", "spring.cloud.zookeeper.config.enabled=false",
				"spring.cloud.compatibility-verifier.enabled=false"));
		all.addAll(List.of(properties));
		return new SpringApplicationBuilder(ShardBenchApp.class).web(WebApplicationType.NONE)
			.logStartupInfo(false)
			.properties(all.toArray(String[]::new))
			.run();
	}

	/** The sharded job: its shard's fixed work. */
	public static class WorkJob implements Job {

		@Autowired
		ZkLeaderElection election;

		@Autowired
		Capacity capacity;

		@Override
		public void execute(JobExecutionContext context) {
			ShardContext shard = ShardContext.require(context);
			boolean permit = false;
			try {
				if (this.capacity.oneAtATime()) {
					this.capacity.permits().acquire();
					permit = true;
				}
				long start = System.currentTimeMillis();
				if (this.capacity.print()) {
					System.out.println("RUNNING " + shard.fireTime() + " " + shard.index());
					System.out.flush();
				}
				long work = this.capacity.workMillis();
				TimeUnit.MILLISECONDS.sleep((work < 0) ? Long.MAX_VALUE : work);
				runs.add(new Run(this.election.participantId(), shard.fireTime(), shard.index(), context.isRecovering(),
						start, System.currentTimeMillis()));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				if (permit) {
					this.capacity.permits().release();
				}
			}
		}

	}

}
