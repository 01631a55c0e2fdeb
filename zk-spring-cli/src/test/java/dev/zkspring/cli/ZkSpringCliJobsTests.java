package dev.zkspring.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code jobs ...}: the endpoint's requests from the command line, against two real applications on a real server. */
class ZkSpringCliJobsTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final Duration WAIT = Duration.ofSeconds(20);

	static final List<String> runs = new CopyOnWriteArrayList<>();

	@TempDir
	Path dir;

	@BeforeEach
	void clear() {
		runs.clear();
	}

	@Test
	void runOnTheFleetRunsOnceOnTheLeaderAndPauseResumeAndHistoryFollow() {
		runner("node-1").run((one) -> runner("node-2").run((two) -> {
			String leader = leaderOf(one, two);
			CliRun run = jobs("run", "report");
			assertThat(run.status()).as(run.out() + run.err()).isZero();
			assertThat(run.out()).startsWith("STARTED: ").contains(leader);
			await().atMost(WAIT).until(() -> runs.size() == 1);
			await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> runs.size() == 1);
			assertThat(runs).containsExactly(leader);
			await().atMost(WAIT).untilAsserted(() -> assertThat(jobs("history", "report", "--output", "json").out())
				.contains("\"instance\" : \"" + leader + "\"").contains("\"outcome\" : \"SUCCEEDED\""));
			CliRun pause = jobs("pause", "report");
			assertThat(pause.status()).as(pause.out()).isZero();
			assertThat(pause.out()).startsWith("DONE: ").contains("paused");
			CliRun list = jobs("list", "--output", "json");
			assertThat(list.status()).as(list.err()).isZero();
			assertThat(list.out()).contains("\"leader\" : \"" + leader + "\"").contains("\"name\" : \"report\"")
				.contains("\"pausedBy\" : \"zk-spring-cli ");
			assertThat(jobs("resume", "report").status()).isZero();
			CliRun unknown = jobs("run", "nosuch");
			assertThat(unknown.status()).as(unknown.out()).isEqualTo(Exits.USAGE);
			assertThat(unknown.out()).startsWith("UNKNOWN_JOB: ");
		}));
	}

	@Test
	void refusedNoLeaderAndTimedOutHaveTheirOwnStatuses() {
		runner("node-1", "zk.quartz.jobs.report.paused=true").run((one) -> {
			await().atMost(WAIT).until(() -> one.getBean(ZkLeaderElection.class).isLeader());
			CliRun refused = jobs("resume", "report");
			assertThat(refused.status()).isEqualTo(Exits.REFUSED);
			assertThat(refused.out()).contains("zk.quartz.jobs.report.paused");
			// another election: nobody takes part, nothing is asked
			CliRun noLeader = CliRun.run(zk.connectString(), "", "jobs", "run", "report", "--app", "billing");
			assertThat(noLeader.status()).isEqualTo(Exits.NO_LEADER);
			assertThat(noLeader.out()).startsWith("NO_LEADER: ");
		});
		// a participant that never answers (not a zk-spring instance): the request is withdrawn
		try (var client = zk.newClient()) {
			client.create().creatingParentsIfNeeded().withMode(org.apache.zookeeper.CreateMode.EPHEMERAL)
				.forPath("/leader/silent/member");
			CliRun timedOut = CliRun.run(zk.connectString(), "", "jobs", "run", "report", "--app", "silent", "--wait",
					"500ms");
			assertThat(timedOut.status()).isEqualTo(Exits.TIMED_OUT);
			assertThat(timedOut.out()).startsWith("TIMEOUT: ").contains("withdrawn");
			assertThat(client.getChildren().forPath("/leader/silent.jobs/requests")).isEmpty();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
		assertThat(CliRun.run(zk.connectString(), "", "jobs", "--help").out()).contains("no leader").contains("timed out")
			.contains("Example");
	}

	private static CliRun jobs(String... args) {
		String[] all = new String[args.length + 3];
		all[0] = "jobs";
		System.arraycopy(args, 0, all, 1, args.length);
		all[args.length + 1] = "--app";
		all[args.length + 2] = "orders";
		return CliRun.run(zk.connectString(), "", all);
	}

	private static String leaderOf(AssertableApplicationContext one, AssertableApplicationContext two) {
		await().atMost(WAIT).until(() -> one.getBean(ZkLeaderElection.class).isLeader()
				|| two.getBean(ZkLeaderElection.class).isLeader());
		return one.getBean(ZkLeaderElection.class).isLeader() ? "node-1" : "node-2";
	}

	private ApplicationContextRunner runner(String id, String... more) {
		return new ApplicationContextRunner()
			.withInitializer((context) -> context.getBeanFactory()
				.setConversionService(ApplicationConversionService.getSharedInstance()))
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class, ZkAutoConfiguration.class,
					ZkRefreshAutoConfiguration.class, QuartzAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
					ZkQuartzAutoConfiguration.class, ZkFleetAutoConfiguration.class))
			.withUserConfiguration(ReportJob.Config.class)
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + this.dir.resolve("snap-" + id),
					"spring.application.name=orders", "zk.session-timeout=10s", "zk.leader.id=" + id,
					"zk.leader.drain-timeout=1s")
			.withPropertyValues(more);
	}

	/** A job whose trigger never fires on its own (2099): every run comes from a request. */
	public static class ReportJob implements Job {

		@Autowired
		Environment environment;

		@Override
		public void execute(JobExecutionContext context) {
			runs.add(this.environment.getProperty("zk.leader.id"));
		}

		@Configuration(proxyBeanMethods = false)
		static class Config {

			@Bean
			JobDetail report() {
				return JobBuilder.newJob(ReportJob.class).withIdentity("report").storeDurably().build();
			}

			@Bean
			Trigger reportTrigger(JobDetail report) {
				return TriggerBuilder.newTrigger().forJob(report).withIdentity("report-trigger")
					.withSchedule(CronScheduleBuilder.cronSchedule("0 0 0 1 1 ? 2099")).build();
			}

		}

	}

}
