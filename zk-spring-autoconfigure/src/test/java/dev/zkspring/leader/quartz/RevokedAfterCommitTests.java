package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quartz.JobKey;

import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.quartz.GatedQuartz.Instance;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A fire time whose record committed just before the leader learned that its leadership ended is
 * vetoed there, and run once by the successor instead of nowhere.
 */
class RevokedAfterCommitTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final GatedQuartz quartz = new GatedQuartz();

	@ParameterizedTest
	@ValueSource(strings = { "plain", "recoverable" })
	void aFireTimeCommittedJustBeforeAGracefulStopRunsOnceOnTheSuccessor(String job) throws Exception {
		Instance a = this.quartz.start("a", zk.newClient(), Duration.ofSeconds(5), GatedQuartz.Setup.NONE);
		Instance b = this.quartz.start("b", zk.newClient(), Duration.ofSeconds(5), GatedQuartz.Setup.NONE);
		AtomicBoolean once = new AtomicBoolean();
		// between the fire-time commit and the re-check: the leader begins a graceful stop
		LeaderInternals.records(a.election()).afterFireTimeCommit = () -> {
			if (once.compareAndSet(false, true)) {
				new Thread(a.election()::stop).start();
				await().atMost(Duration.ofSeconds(5)).until(() -> !a.election().isLeader());
			}
		};

		a.scheduler().triggerJob(JobKey.jobKey(job));

		await().atMost(Duration.ofSeconds(10)).until(() -> GatedQuartz.count("b") == 1);
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3)).until(() -> GatedQuartz.runs.size() == 1);
		assertThat(GatedQuartz.runs).singleElement().asString().startsWith("b ").contains(" " + job + " ");
		assertThat(b.election().isLeader()).isTrue();
	}

}
