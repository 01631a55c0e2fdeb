package dev.zkspring.leader.shard;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.leader.shard.ShardedJobsApp.Run;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A job factory of the application's own, set on Boot's scheduler through a customizer, still creates
 * the jobs: the factory of sharded jobs only stands in front of it (it used to replace it).
 */
class UserJobFactoryTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final ShardedJobsApp.Instances instances = new ShardedJobsApp.Instances(zk, "test.period-millis=500",
			"zk.quartz.jobs.report.shards=2", "test.user-job-factory=true");

	@Test
	void theApplicationsJobFactoryCreatesTheShardsJobs() {
		this.instances.start("a");
		this.instances.start("b");
		await().atMost(Duration.ofSeconds(20)).until(() -> ShardedJobsApp.runs.stream().map(Run::instance).distinct().count() == 2);
		int runs = ShardedJobsApp.runs.size();
		assertThat(ShardedJobsApp.createdByUserFactory).as("jobs created by the application's job factory")
			.contains("a:report", "b:report").hasSizeGreaterThanOrEqualTo(runs);
	}

}
