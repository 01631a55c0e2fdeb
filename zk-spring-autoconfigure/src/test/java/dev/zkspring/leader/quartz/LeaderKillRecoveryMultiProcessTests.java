package dev.zkspring.leader.quartz;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.test.compatibility.Timing2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.quartz.Scheduler;

import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ChildJvms;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A leader JVM killed with SIGKILL ({@code kill -9}) while it runs a job that requests recovery: the
 * successor, in this JVM, re-runs the job exactly once with {@code isRecovering()} true, and takes over
 * within the session timeout + the server's tick + 1 s.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class LeaderKillRecoveryMultiProcessTests {

	private static final String LATCH = "/leader/killed";

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path dir;

	private Process process;

	private ZkLeaderElection successor;

	private Scheduler scheduler;

	@AfterEach
	void stopAll() throws Exception {
		if (this.process != null) {
			this.process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
		if (this.scheduler != null) {
			this.scheduler.shutdown(false);
		}
		if (this.successor != null) {
			this.successor.stop();
		}
	}

	@Test
	void successorReRunsOnceWithIsRecoveringAJobItsKilledLeaderWasRunningWithinTheSessionTimeout() throws Exception {
		KilledLeaderMain.runsHere.clear();
		KilledLeaderMain.runStartsHere.clear();
		Path journal = this.dir.resolve("journal.txt");
		Files.createFile(journal);
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		this.process = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
				KilledLeaderMain.class.getName(), zk.connectString(), LATCH, journal.toString(), "3000")
			.redirectErrorStream(true)
			.start();
		int sessionTimeoutMs = ChildJvms.awaitReady(this.process, "the killed leader's JVM");
		this.scheduler = KilledLeaderMain.scheduler("successor");
		this.successor = new ZkLeaderElection(zk.newClient(), LATCH, () -> "successor", Duration.ofSeconds(1),
				Duration.ZERO);
		new SchedulerGate(this.scheduler, this.successor, LeaderInternals::records, RevokePolicy.STANDBY).attach();
		this.successor.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.successor.participants().size() == 2);
		await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(journal).startsWith("started "));
		assertThat(this.successor.isLeader()).isFalse();

		this.process.destroyForcibly();
		long killed = System.currentTimeMillis();
		assertThat(this.process.waitFor(10, TimeUnit.SECONDS)).isTrue();

		await().atMost(Duration.ofMillis(sessionTimeoutMs * 3L)).until(() -> !KilledLeaderMain.runsHere.isEmpty());
		long tookOver = KilledLeaderMain.runStartsHere.get(0);
		await().during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(3))
			.until(() -> KilledLeaderMain.runsHere.size() == 1);
		assertThat(KilledLeaderMain.runsHere).containsExactly("recovering");
		assertThat(tookOver - killed).as("kill -9 failover with the recovery started, ms (session timeout %d ms)",
				sessionTimeoutMs)
			.isLessThanOrEqualTo(sessionTimeoutMs + new Timing2().tickTime() + 1_000L);
	}

}
