package dev.zkspring.client;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

import dev.zkspring.leader.ZkLeaderElection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A healthy start (embedded ZooKeeper, config center, leader-gated Quartz job, all of zk-spring's
 * auto-configuration) logs nothing at WARN or above and none of the libraries' chatter (issue 31.3), and
 * ZooKeeper's client does not log replies even with the root logger at DEBUG (issue 25.9); the
 * application's own {@code logging.level.*} still wins.
 */
@ExtendWith(OutputCaptureExtension.class)
class QuietStartupIntegrationTests {

	@TempDir
	Path dir;

	@Test
	void aHealthyStartLogsNothingAtWarnOrAboveAndNoLibraryChatter(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start()) {
			assertThat(context.getBean(ZkLeaderElection.class).isLeader()).isTrue();
			assertThat(level("org.apache.zookeeper.ClientCnxn")).isEqualTo(LogLevel.WARN);
		}
		List<String> lines = Arrays.asList(output.getOut().split("\\R"));
		assertThat(lines).filteredOn((line) -> line.matches("^\\S+\\s+(WARN|ERROR)\\b.*")).isEmpty();
		assertThat(output.getOut()).doesNotContain("New config event received")
			.doesNotContain("Client environment:")
			.doesNotContain("Currently in standby mode")
			.doesNotContain("maxCnxns is not configured")
			.contains("Connected to ZooKeeper at");
	}

	@Test
	void rootAtDebugLeavesZooKeepersPacketLoggingOff() {
		try (ConfigurableApplicationContext context = start("--logging.level.root=DEBUG")) {
			assertThat(level("org.apache.zookeeper.ClientCnxn")).isEqualTo(LogLevel.WARN);
			assertThat(level("org.apache.curator.framework")).isEqualTo(LogLevel.WARN);
		}
	}

	@Test
	void theApplicationsOwnLevelsWin(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start("--logging.level.org.apache.curator=INFO",
				"--logging.level.org.apache=DEBUG")) {
			assertThat(level("org.apache.zookeeper.ClientCnxn")).isEqualTo(LogLevel.DEBUG);
			assertThat(level("org.apache.zookeeper.server.ServerCnxnFactory")).isEqualTo(LogLevel.DEBUG);
			assertThat(level("org.quartz.core.QuartzScheduler")).isEqualTo(LogLevel.WARN);
		}
		assertThat(output.getOut()).contains("New config event received");
	}

	private ConfigurableApplicationContext start(String... args) {
		SpringApplication application = new SpringApplication(App.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> all = new java.util.ArrayList<>(List.of("--spring.application.name=quiet",
				"--zk.embedded.enabled=true", "--zk.embedded.port=0", "--zk.embedded.data-dir=" + this.dir.resolve("zk"),
				"--zk.config.snapshot-dir=" + this.dir.resolve("snapshots"), "--spring.quartz.job-store-type=memory",
				"--spring.main.banner-mode=off"));
		all.addAll(List.of(args));
		ConfigurableApplicationContext context = application.run(all.toArray(String[]::new));
		await().atMost(Duration.ofSeconds(20)).until(() -> context.getBean(ZkLeaderElection.class).isLeader());
		return context;
	}

	private static LogLevel level(String logger) {
		return LoggingSystem.get(QuietStartupIntegrationTests.class.getClassLoader())
			.getLoggerConfiguration(logger)
			.getEffectiveLevel();
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		JobDetail quietJob() {
			return JobBuilder.newJob(QuietJob.class).withIdentity("quiet").storeDurably().build();
		}

		@Bean
		Trigger quietTrigger(JobDetail quietJob) {
			return TriggerBuilder.newTrigger().forJob(quietJob).withIdentity("quiet")
				.withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(60)).build();
		}

	}

	public static class QuietJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
		}

	}

}
