package dev.zkspring.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.CronScheduleBuilder;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.jobs.ZkLeaderGroups;
import dev.zkspring.leader.ZkLeaderElection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What the instances publish of their jobs in their fleet nodes, as the tool reads it, against real applications
 * on a real server: {@code jobs list} names a job that never ran, a grouped job's group and leader and a sharded
 * job's shard count; a request for a job whose leader group nobody leads is "no leader" (7), not a timeout; and
 * {@code fleet} shows the shards each instance owns.
 */
class ZkSpringCliJobCatalogTests {

	@RegisterExtension
	static final CliServer zk = CliServer.server().cleaning("/config", "/fleet", "/leader");

	private static final Duration WAIT = Duration.ofSeconds(30);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	@TempDir
	Path dir;

	@Test
	void listNamesJobsThatNeverRanWithTheirLeaderGroupLeaderAndShardsAndFleetShowsTheShardsOwned() {
		runner("node-1").run((one) -> runner("node-2").run((two) -> {
			await().atMost(WAIT).untilAsserted(() -> {
				Map<String, Object> body = json("jobs", "list", "--app", "orders", "--output", "json");
				List<Map<String, Object>> jobs = cast(body.get("jobs"));
				assertThat(jobs).extracting((job) -> job.get("name")).containsExactly("invoice", "report", "sweep");
				Map<String, Object> report = jobs.get(1);
				// never ran, never paused: known only from the fleet nodes
				assertThat(report.get("lastRun")).isNull();
				assertThat(report.get("pausedBy")).isNull();
				assertThat(report.get("live")).isEqualTo(true);
				assertThat(report.get("leaderGroup")).isNull();
				assertThat(report.get("election")).isEqualTo("/leader/orders");
				assertThat(report.get("leader")).isNotNull().isEqualTo(body.get("leader"));
				Map<String, Object> invoice = jobs.get(0);
				assertThat(invoice.get("leaderGroup")).isEqualTo("billing");
				assertThat(invoice.get("election")).isEqualTo("/leader/orders.groups/billing");
				assertThat(invoice.get("leader")).isIn("node-1", "node-2");
				assertThat(jobs.get(2).get("shards")).isEqualTo(2);
			});
			CliRun table = CliRun.run(zk.connectString(), "", "jobs", "list", "--app", "orders");
			assertThat(table.status()).isZero();
			assertThat(table.out()).contains("LEADER GROUP").containsPattern("invoice +billing ");
			// the sweep fires every second: once both are members, each owns one of its two shards
			await().atMost(WAIT).untilAsserted(() -> {
				List<Map<String, Object>> instances = cast(json("fleet", "--app", "orders", "--output", "json").get("instances"));
				List<Object> owned = new ArrayList<>();
				for (Map<String, Object> instance : instances) {
					List<Map<String, Object>> shards = cast(instance.get("shards"));
					assertThat(shards).hasSize(1);
					assertThat(shards.get(0).get("job")).isEqualTo("DEFAULT.sweep");
					owned.addAll(cast(shards.get(0).get("shards")));
				}
				assertThat(owned).containsExactlyInAnyOrder(0, 1);
			});
			assertThat(CliRun.run(zk.connectString(), "", "fleet", "--app", "orders").out()).contains("DEFAULT.sweep:");
		}));
	}

	@Test
	void aJobOfALeaderGroupNobodyLeadsIsNoLeaderNamingTheGroupNotATimeout() throws Exception {
		runner("node-1").run((one) -> {
			ZkLeaderElection billing = one.getBean(ZkLeaderGroups.class).elections().get("billing");
			await().atMost(WAIT).until(billing::isLeader);
			// the fleet node has told which group invoice belongs to
			await().atMost(WAIT).until(() -> CliRun.run(zk.connectString(), "", "jobs", "list", "--app", "orders")
				.out().contains("billing"));
			billing.stop();
			await().atMost(WAIT).until(() -> zk.client().getChildren().forPath("/leader/orders.groups/billing").isEmpty());
			long start = System.nanoTime();
			CliRun noParticipant = CliRun.run(zk.connectString(), "", "jobs", "run", "invoice", "--app", "orders", "--wait",
					"20s");
			assertThat(noParticipant.status()).as(noParticipant.out() + noParticipant.err()).isEqualTo(Exits.NO_LEADER);
			assertThat(noParticipant.out()).startsWith("NO_LEADER: ").contains("leader group billing");
			// nothing was asked: answered at once, not after --wait
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
			// a participant that never leads (not a zk-spring instance): asked, unanswered, withdrawn, then "no leader"
			zk.client().create().withMode(CreateMode.EPHEMERAL).forPath("/leader/orders.groups/billing/silent");
			CliRun nobodyLeads = CliRun.run(zk.connectString(), "", "jobs", "run", "invoice", "--app", "orders", "--wait",
					"1s");
			assertThat(nobodyLeads.status()).as(nobodyLeads.out() + nobodyLeads.err()).isEqualTo(Exits.NO_LEADER);
			assertThat(nobodyLeads.out()).startsWith("NO_LEADER: ").contains("leader group billing").contains("withdrawn");
			assertThat(zk.client().getChildren().forPath("/leader/orders.jobs/requests")).isEmpty();
			// a job of the application's own election still runs
			assertThat(CliRun.run(zk.connectString(), "", "jobs", "run", "report", "--app", "orders").status()).isZero();
		});
	}

	@Test
	void anInstanceOlderThanTheJobsFieldIsStillListed() throws Exception {
		// a node as instances wrote it before the jobs field
		zk.client().create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath("/fleet/orders/old-node",
				("{\"id\":\"old-node\",\"host\":\"h\",\"leader\":true,\"epoch\":3,\"leadership\":[{\"group\":"
						+ "\"/leader/orders\",\"leader\":true,\"epoch\":3}],\"config\":[],\"locks\":[],\"recent\":[],"
						+ "\"updated\":1}").getBytes(java.nio.charset.StandardCharsets.UTF_8));
		List<Map<String, Object>> instances = cast(json("fleet", "--app", "orders", "--output", "json").get("instances"));
		assertThat(instances).singleElement().satisfies((instance) -> {
			assertThat(instance).doesNotContainKey("unreadable").containsEntry("shards", List.of());
			assertThat(cast(instance.get("leads"), List.class)).containsExactly("/leader/orders");
		});
		Map<String, Object> list = json("jobs", "list", "--app", "orders", "--output", "json");
		assertThat(list.get("leader")).isEqualTo("old-node");
		assertThat(cast(list.get("jobs"), List.class)).isEmpty();
	}

	@SuppressWarnings("unchecked")
	private static <T> T cast(Object value, Class<T> type) {
		return (T) value;
	}

	private static Map<String, Object> json(String... args) {
		CliRun run = CliRun.run(zk.connectString(), "", args);
		assertThat(run.status()).as(run.err()).isZero();
		return cast(JSON.readValue(run.out(), Map.class));
	}

	@SuppressWarnings("unchecked")
	private static <T> T cast(Object value) {
		return (T) value;
	}

	private ApplicationContextRunner runner(String id) {
		return new ApplicationContextRunner()
			.withInitializer((context) -> context.getBeanFactory()
				.setConversionService(ApplicationConversionService.getSharedInstance()))
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class, ZkAutoConfiguration.class,
					ZkRefreshAutoConfiguration.class, QuartzAutoConfiguration.class, ZkLeaderAutoConfiguration.class,
					ZkQuartzAutoConfiguration.class, ZkFleetAutoConfiguration.class))
			.withUserConfiguration(Jobs.class)
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + this.dir.resolve("snap-" + id),
					"spring.application.name=orders", "zk.session-timeout=10s", "zk.leader.id=" + id,
					"zk.leader.drain-timeout=1s", "zk.leader.groups.billing=invoice", "zk.quartz.jobs.sweep.shards=2");
	}

	/** Does nothing: the tests look at what the instances say of their jobs, not at the runs. */
	public static class Quiet implements Job {

		@Override
		public void execute(JobExecutionContext context) {
		}

	}

	/** report and invoice never fire on their own (2099); sweep, sharded, fires every second. */
	@Configuration(proxyBeanMethods = false)
	static class Jobs {

		@Bean
		JobDetail report() {
			return JobBuilder.newJob(Quiet.class).withIdentity("report").storeDurably().build();
		}

		@Bean
		Trigger reportTrigger() {
			return TriggerBuilder.newTrigger().forJob("report").withIdentity("report-trigger")
				.withSchedule(CronScheduleBuilder.cronSchedule("0 0 0 1 1 ? 2099")).build();
		}

		@Bean
		JobDetail invoice() {
			return JobBuilder.newJob(Quiet.class).withIdentity("invoice").storeDurably().build();
		}

		@Bean
		Trigger invoiceTrigger() {
			return TriggerBuilder.newTrigger().forJob("invoice").withIdentity("invoice-trigger")
				.withSchedule(CronScheduleBuilder.cronSchedule("0 0 0 1 1 ? 2099")).build();
		}

		@Bean
		JobDetail sweep() {
			return JobBuilder.newJob(Quiet.class).withIdentity("sweep").storeDurably().build();
		}

		@Bean
		Trigger sweepTrigger() {
			return TriggerBuilder.newTrigger().forJob("sweep").withIdentity("sweep-trigger")
				.withSchedule(SimpleScheduleBuilder.repeatSecondlyForever()).build();
		}

	}

}
