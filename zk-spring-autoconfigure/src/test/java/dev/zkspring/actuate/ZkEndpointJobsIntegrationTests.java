package dev.zkspring.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkEndpointAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The endpoint's {@code jobs} section and its write operation, with their HTTP statuses. */
class ZkEndpointJobsIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	static final AtomicInteger runs = new AtomicInteger();

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withInitializer(new ZkConfigInitializer())
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, QuartzAutoConfiguration.class,
				ZkLeaderAutoConfiguration.class, ZkQuartzAutoConfiguration.class, ZkEndpointAutoConfiguration.class))
		.withUserConfiguration(Jobs.class)
		.withPropertyValues(zk.connectProperty(), "spring.application.name=endpoint-jobs", "zk.leader.id=node-1",
				"management.endpoints.web.exposure.include=zookeeper");

	@Test
	@SuppressWarnings("unchecked")
	void jobsSectionListsTheJobAndARunIsAnsweredWithItsStatus() {
		this.runner.run((context) -> {
			ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
			await().atMost(Duration.ofSeconds(10)).until(election::isLeader);
			ZkEndpoint endpoint = context.getBean(ZkEndpoint.class);

			WebEndpointResponse<Map<String, Object>> started = endpoint.job("jobs", "DEFAULT", "report", "run");
			assertThat(started.getStatus()).isEqualTo(200);
			assertThat(started.getBody()).containsEntry("status", "STARTED");
			await().atMost(Duration.ofSeconds(5)).until(() -> runs.get() == 1);
			assertThat(endpoint.job("jobs", "DEFAULT", "nosuch", "run").getStatus()).isEqualTo(404);
			assertThat(endpoint.job("jobs", "DEFAULT", "report", "explode").getStatus()).isEqualTo(400);
			assertThat(endpoint.job("fleet", "DEFAULT", "report", "run").getStatus()).isEqualTo(404);

			Map<String, Object> section = endpoint.section("jobs");
			List<Map<String, Object>> jobs = (List<Map<String, Object>>) section.get("jobs");
			assertThat(jobs).singleElement().satisfies((job) -> {
				assertThat(job).containsEntry("group", "DEFAULT").containsEntry("name", "report")
					.containsEntry("paused", false).containsEntry("leader", "node-1")
					.containsEntry("schedule", List.of("cron 0 0 0 1 1 ? 2099"));
			});
			await().atMost(Duration.ofSeconds(5)).until(() -> endpoint.section("jobs").toString().contains("outcome=SUCCEEDED"));

			election.stop();
			WebEndpointResponse<Map<String, Object>> none = endpoint.job("jobs", "DEFAULT", "report", "pause");
			assertThat(none.getStatus()).isEqualTo(503);
			assertThat(none.getBody()).containsEntry("status", "NO_LEADER");
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class Jobs {

		@Bean
		JobDetail report() {
			return JobBuilder.newJob(CountingJob.class).withIdentity("report").storeDurably().build();
		}

		@Bean
		Trigger reportTrigger(JobDetail report) {
			return TriggerBuilder.newTrigger().forJob(report).withSchedule(CronScheduleBuilder.cronSchedule("0 0 0 1 1 ? 2099"))
				.build();
		}

	}

	public static class CountingJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
			runs.incrementAndGet();
		}

	}

}
