package dev.zkspring.apps.quartz;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.zkspring.leader.ZkLeaderElection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Quartz on the JDBC store with the starter added: the instance leads and its job runs. */
@SpringBootTest
class QuartzJdbcApplicationTests {

	@Autowired
	ZkLeaderElection election;

	@Autowired
	QuartzJdbcApplication.Runs runs;

	@Test
	void theLeaderRunsTheJobFromTheJdbcStore() {
		await().atMost(Duration.ofSeconds(20)).until(this.election::isLeader);
		await().atMost(Duration.ofSeconds(20)).until(() -> this.runs.count() >= 2);
	}

}
