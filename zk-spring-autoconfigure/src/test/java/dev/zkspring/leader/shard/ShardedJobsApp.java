package dev.zkspring.leader.shard;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.jobs.ZkShards;
import dev.zkspring.leader.ShardContext;
import dev.zkspring.jobs.ShardsAccess;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

/**
 * An application with one job, {@code report}, firing on a lattice of {@code test.period-millis} shared
 * by all instances (a fire time means the same on each), requesting recovery when
 * {@code test.recovery=true}. Each shard run is recorded in {@link #runs}. {@link Instances} starts
 * several of it, each a Spring context with its own client and session.
 */
@Configuration(proxyBeanMethods = false)
@ImportAutoConfiguration({ ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class, QuartzAutoConfiguration.class,
		ZkLeaderAutoConfiguration.class, ZkQuartzAutoConfiguration.class })
class ShardedJobsApp {

	static final List<Run> runs = new CopyOnWriteArrayList<>();

	@Bean
	JobDetail report(Environment environment) {
		return JobBuilder.newJob(RecordingShardJob.class).withIdentity("report").storeDurably()
			.requestRecovery(environment.getProperty("test.recovery", Boolean.class, false)).build();
	}

	@Bean
	Trigger reportTrigger(JobDetail report, Environment environment) {
		long period = environment.getProperty("test.period-millis", Long.class, 500L);
		long now = System.currentTimeMillis();
		return TriggerBuilder.newTrigger().forJob(report).withIdentity("report-trigger")
			.startAt(new Date((now / period + 1) * period))
			.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(period).repeatForever())
			.build();
	}

	/** One shard run: the instance, the fire time, the shard and what it was told. */
	record Run(String instance, long fireTime, int index, int total, String parameter, boolean recovering) {
	}

	/** Runs per (fire time, shard) for fire times in [from, to]. */
	static Map<String, List<String>> runsPerShard(long from, long to) {
		return runs.stream().filter((run) -> run.fireTime() >= from && run.fireTime() <= to)
			.collect(Collectors.groupingBy((run) -> run.fireTime() + "#" + run.index(),
					Collectors.mapping(Run::instance, Collectors.toList())));
	}

	public static class RecordingShardJob implements Job {

		@Autowired
		ZkLeaderElection election;

		@Override
		public void execute(JobExecutionContext context) {
			ShardContext shard = ShardContext.require(context);
			runs.add(new Run(this.election.participantId(), shard.fireTime(), shard.index(), shard.total(),
					shard.parameter(), context.isRecovering()));
		}

	}

	/** Instances of the application, all closed after each test; each test has an application name of its own. */
	static final class Instances implements BeforeEachCallback, AfterEachCallback {

		private static final AtomicInteger names = new AtomicInteger();

		private final ZooKeeperExtension zk;

		private final String[] defaults;

		private final List<Instance> started = new CopyOnWriteArrayList<>();

		private String name = "";

		String name() {
			return this.name;
		}

		Instances(ZooKeeperExtension zk, String... defaults) {
			this.zk = zk;
			this.defaults = defaults;
		}

		@Override
		public void beforeEach(ExtensionContext context) {
			this.name = "shard-tests-" + names.incrementAndGet();
			runs.clear();
			ShardRunner.beforeClaim = null;
			ShardRunner.onRefused = null;
		}

		@Override
		public void afterEach(ExtensionContext context) {
			ShardRunner.beforeClaim = null;
			ShardRunner.onRefused = null;
			for (Instance instance : this.started) {
				instance.context().close();
			}
			this.started.clear();
		}

		Instance start(String id, String... properties) {
			List<String> all = new ArrayList<>(List.of(this.zk.connectProperty(), "spring.application.name=" + this.name,
					"zk.leader.id=" + id, "spring.quartz.scheduler-name=" + id,
					"spring.quartz.properties.org.quartz.threadPool.threadCount=2"));
			all.addAll(Arrays.asList(this.defaults));
			all.addAll(Arrays.asList(properties));
			ConfigurableApplicationContext context = new SpringApplicationBuilder(ShardedJobsApp.class)
				.web(WebApplicationType.NONE)
				.bannerMode(Banner.Mode.OFF)
				.logStartupInfo(false)
				.properties(all.toArray(String[]::new))
				.run();
			Instance instance = new Instance(id, context);
			this.started.add(instance);
			return instance;
		}

	}

	/** One running instance. */
	record Instance(String id, ConfigurableApplicationContext context) {

		ShardOperations shards() {
			return ShardsAccess.of(this.context.getBean(ZkShards.class));
		}

		ZkLeaderElection election() {
			return this.context.getBean(ZkLeaderElection.class);
		}

		CuratorFramework client() {
			return this.context.getBean(CuratorFramework.class);
		}

	}

}
