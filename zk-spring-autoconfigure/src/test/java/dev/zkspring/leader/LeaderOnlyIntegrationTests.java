package dev.zkspring.leader;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@link LeaderOnly} methods, scheduled on every instance, run on the leader only. */
class LeaderOnlyIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	static final ExecutionRecorder recorder = new ExecutionRecorder();

	@RegisterExtension
	final AppInstances instances = new AppInstances(zk, ScheduledReportConfiguration.class,
			"zk.leader.takeover-delay=1s", "zk.leader.drain-timeout=1s");

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty(), "spring.application.name=leader-only");

	@Test
	void scheduledLeaderOnlyMethodRunsOnExactlyOneInstanceAndMovesWithLeadership() {
		long since = System.nanoTime();
		List<Instance> all = this.instances.startAll("a", "b", "c");
		await().atMost(Duration.ofSeconds(10)).until(() -> all.stream().filter(Instance::isLeader).count() == 1);
		Instance leader = all.stream().filter(Instance::isLeader).findFirst().orElseThrow();
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.startedAfter(since).size() >= 5);
		assertThat(recorder.instancesSince(since)).containsExactly(leader.id());
		long stopped = System.nanoTime();
		leader.context().close();
		// a call between the stop request and the revocation still belongs to the leader; none may come after
		await().atMost(Duration.ofSeconds(5)).until(() -> leader.revokedAfter(stopped) > 0);
		long revoked = leader.revokedAfter(stopped);
		await().atMost(Duration.ofSeconds(5)).until(() -> !recorder.startedAfter(revoked).isEmpty());
		assertThat(recorder.instancesSince(revoked)).hasSize(1).doesNotContain(leader.id());
		recorder.assertNoOverlap();
	}

	@Test
	void skippedCallsReturnNullOrAnEmptyOptional() {
		List<Instance> all = this.instances.startAll("a", "b");
		await().atMost(Duration.ofSeconds(10)).until(() -> all.stream().filter(Instance::isLeader).count() == 1);
		for (Instance instance : all) {
			Report report = instance.context().getBean(Report.class);
			if (instance.isLeader()) {
				assertThat(report.name()).isEqualTo(instance.id());
				assertThat(report.maybeName()).contains(instance.id());
			}
			else {
				assertThat(report.name()).isNull();
				assertThat(report.maybeName()).isEmpty();
			}
		}
	}

	@Test
	void leaderOnlyMethodReturningAPrimitiveIsRejectedAtStartupNamingTheMethod() {
		this.contextRunner.withUserConfiguration(PrimitiveReportConfiguration.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(ZkStartupException.class)
				.hasMessageContaining("@LeaderOnly method " + PrimitiveReport.class.getName() + ".count()")
				.hasMessageContaining("returns int");
			ZkStartupException failure = (ZkStartupException) NestedExceptionUtils
				.getRootCause(context.getStartupFailure());
			assertThat(failure.getAction()).contains("Integer").contains("Optional");
		});
	}

	@Test
	void leaderOnlyMethodsRunAsPlainMethodsWhenLeaderElectionIsOff() {
		this.contextRunner.withPropertyValues("zk.leader.enabled=false")
			.withBean(Report.class, () -> new Report("solo"))
			.run((context) -> {
				assertThat(context).doesNotHaveBean(ZkLeaderElection.class);
				assertThat(context.getBean(Report.class).name()).isEqualTo("solo");
			});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@ImportAutoConfiguration({ ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class })
	static class ScheduledReportConfiguration {

		@Bean
		Report report(@Value("${zk.leader.id}") String id) {
			return new Report(id);
		}

	}

	static class Report {

		private final String id;

		Report(String id) {
			this.id = id;
		}

		@LeaderOnly
		@Scheduled(fixedRate = 100)
		public void tick() throws InterruptedException {
			long start = System.nanoTime();
			Thread.sleep(20);
			recorder.record(this.id, 0, start, System.nanoTime());
		}

		@LeaderOnly
		public String name() {
			return this.id;
		}

		@LeaderOnly
		public Optional<String> maybeName() {
			return Optional.of(this.id);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class PrimitiveReportConfiguration {

		@Bean
		PrimitiveReport primitiveReport() {
			return new PrimitiveReport();
		}

	}

	static class PrimitiveReport {

		@LeaderOnly
		public int count() {
			return 1;
		}

	}

}
