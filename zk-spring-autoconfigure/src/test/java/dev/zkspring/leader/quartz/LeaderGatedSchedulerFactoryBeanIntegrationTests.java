package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.List;
import java.util.Properties;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.JobDetail;
import org.quartz.Scheduler;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.jobs.LeaderGatedSchedulerFactoryBean;
import dev.zkspring.leader.AppInstances.Instance;
import dev.zkspring.leader.AppInstances;
import dev.zkspring.leader.ExecutionRecorder.Execution;
import dev.zkspring.leader.ExecutionRecorder;
import dev.zkspring.leader.RecordingJobConfiguration;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A scheduler the application declares itself, as a {@link LeaderGatedSchedulerFactoryBean}. */
class LeaderGatedSchedulerFactoryBeanIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	static final ExecutionRecorder recorder = new ExecutionRecorder();

	@RegisterExtension
	final AppInstances instances = new AppInstances(zk, UserSchedulerConfiguration.class,
			"zk.leader.takeover-delay=1s", "zk.leader.drain-timeout=5s");

	@Test
	void userDeclaredSchedulerRunsOnTheLeaderOnlyAndMovesOnGracefulStop() {
		long since = System.nanoTime();
		List<Instance> all = this.instances.startAll("a", "b");
		Instance leader = awaitOneLeader(all);
		await().atMost(Duration.ofSeconds(10)).until(() -> recorder.startedAfter(since).size() >= 3);
		assertThat(recorder.instancesSince(since)).containsExactly(leader.id());
		long stopped = System.nanoTime();
		leader.context().close();
		// a firing between the stop request and the standby still belongs to the leader; none may come after
		await().atMost(Duration.ofSeconds(5)).until(() -> leader.revokedAfter(stopped) > 0);
		long revoked = leader.revokedAfter(stopped);
		await().atMost(Duration.ofSeconds(5)).until(() -> !recorder.startedAfter(revoked).isEmpty());
		assertThat(recorder.instancesSince(revoked)).doesNotContain(leader.id());
		recorder.assertNoOverlap();
	}

	@Test
	void interruptPolicyInterruptsTheRunningJobWhenTheSessionExpires() throws Exception {
		long since = System.nanoTime();
		List<Instance> all = List.of("a", "b")
			.stream()
			.map((id) -> this.instances.start(id, "zk.quartz.on-revoke=interrupt", "test.work-millis=20000"))
			.toList();
		Instance leader = awaitOneLeader(all);
		Scheduler scheduler = leader.context().getBean(Scheduler.class);
		await().atMost(Duration.ofSeconds(5)).until(() -> !scheduler.getCurrentlyExecutingJobs().isEmpty());
		long expired = System.nanoTime();
		ZooKeeperExtension.expireSession(leader.client());
		await().atMost(Duration.ofSeconds(5)).until(() -> !recorder.by(leader.id(), since).isEmpty());
		Execution interrupted = recorder.by(leader.id(), since).get(0);
		assertThat(Duration.ofNanos(interrupted.endNanos() - expired)).isLessThan(Duration.ofSeconds(2));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> all.stream().anyMatch((instance) -> instance != leader && instance.isLeader()));
		recorder.assertNoOverlap();
	}

	@Test
	void standbyPolicyLetsTheRunningJobFinishBeforeTheGracefulHandover() {
		long since = System.nanoTime();
		List<Instance> all = List.of("a", "b")
			.stream()
			.map((id) -> this.instances.start(id, "test.work-millis=1500"))
			.toList();
		Instance leader = awaitOneLeader(all);
		Scheduler scheduler = leader.context().getBean(Scheduler.class);
		await().atMost(Duration.ofSeconds(5)).until(() -> !scheduler.getCurrentlyExecutingJobs().isEmpty());
		long stopped = System.nanoTime();
		leader.context().close();
		Execution finished = recorder.by(leader.id(), since).get(0);
		assertThat(Duration.ofNanos(finished.endNanos() - finished.startNanos()))
			.isGreaterThanOrEqualTo(Duration.ofMillis(1500));
		await().atMost(Duration.ofSeconds(5)).until(() -> !recorder.startedAfter(stopped).isEmpty());
		recorder.assertNoOverlap();
	}

	private static Instance awaitOneLeader(List<Instance> all) {
		await().atMost(Duration.ofSeconds(10)).until(() -> all.stream().filter(Instance::isLeader).count() == 1);
		return all.stream().filter(Instance::isLeader).findFirst().orElseThrow();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZkAutoConfiguration.class, ZkLeaderAutoConfiguration.class })
	static class UserSchedulerConfiguration {

		@Bean
		LeaderGatedSchedulerFactoryBean scheduler(ZkLeaderElection election, Environment environment) {
			LeaderGatedSchedulerFactoryBean factory = new LeaderGatedSchedulerFactoryBean(election);
			JobDetail job = RecordingJobConfiguration.job(recorder, environment);
			factory.setJobDetails(job);
			factory.setTriggers(RecordingJobConfiguration.trigger(job, environment));
			factory.setSchedulerName("user-" + environment.getProperty("zk.leader.id"));
			Properties quartz = new Properties();
			quartz.setProperty("org.quartz.threadPool.threadCount", "2");
			factory.setQuartzProperties(quartz);
			return factory;
		}

	}

}
