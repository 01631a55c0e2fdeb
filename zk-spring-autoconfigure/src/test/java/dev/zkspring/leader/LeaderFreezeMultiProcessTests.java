package dev.zkspring.leader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.zkspring.test.ChildJvms;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A leader JVM frozen with SIGSTOP past its session timeout, replaced by another JVM, then resumed with
 * SIGCONT: the journals of both (wall-clock start and end, epoch, fire time of every run) show that the
 * resumed JVM starts nothing new and that no fire time of the shared schedule runs twice.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class LeaderFreezeMultiProcessTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path dir;

	private final List<Process> processes = new ArrayList<>();

	@AfterEach
	void killProcesses() throws Exception {
		for (Process process : this.processes) {
			ChildJvms.signal(process, "CONT");
			process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void leaderFrozenPastItsSessionStartsNothingAfterResumingAndNoFireTimeRunsTwice() throws Exception {
		Path journal = this.dir.resolve("journal.txt");
		Files.createFile(journal);
		Process a = startInstance("a", journal);
		int sessionTimeoutMs = ChildJvms.awaitReady(a, "an instance");
		await().atMost(Duration.ofSeconds(20)).until(() -> runs(journal, "a").size() >= 3);
		Process b = startInstance("b", journal);
		ChildJvms.awaitReady(b, "an instance");
		CuratorFramework observer = zk.newClient();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> observer.getChildren().forPath("/leader/freeze").stream().filter((n) -> n.contains("latch")).count() == 2);
		ChildJvms.signal(a, "STOP");
		long frozen = System.currentTimeMillis();
		// b takes over once the server expires a's session; keep a frozen well past that
		await().atMost(Duration.ofMillis(sessionTimeoutMs * 3L)).until(() -> !runs(journal, "b").isEmpty());
		long takenOver = runs(journal, "b").get(0).start();
		await().atMost(Duration.ofSeconds(5)).until(() -> runs(journal, "b").size() >= 5);
		ChildJvms.signal(a, "CONT");
		long resumed = System.currentTimeMillis();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> runs(journal, "b").stream().filter((run) -> run.start() > resumed + 2_000).count() >= 3);
		List<Run> all = runs(journal, null);
		String history = String.join("\n", Files.readAllLines(journal));
		// after its freeze, a may only act again once it leads again: with an epoch above every one b had
		assertThat(runs(journal, "a")).as("jobs the frozen leader started after its freeze (SIGSTOP at %d):%n%s", frozen, history)
			.noneMatch((run) -> run.start() >= frozen && !aboveEveryEpochBefore(all, "b", run));
		assertThat(runs(journal, "a:call")).as("@LeaderOnly calls the frozen leader started after its freeze:%n%s", history)
			.isNotEmpty()
			.anyMatch((run) -> run.start() < frozen)
			.noneMatch((run) -> run.start() >= frozen && !aboveEveryEpochBefore(all, "b", run));
		assertThat(runs(journal, "b:call")).isNotEmpty().allMatch((run) -> run.start() >= takenOver - 1_000);
		Map<Long, Run> byFireTime = new HashMap<>();
		for (Run run : all) {
			if (run.fireTime() < 0) {
				continue;
			}
			Run earlier = byFireTime.put(run.fireTime(), run);
			assertThat(earlier).as("another run of fire time %d than %s", run.fireTime(), run).isNull();
		}
		long epochOfA = runs(journal, "a").get(0).epoch();
		assertThat(runs(journal, "b")).allMatch((run) -> run.epoch() > epochOfA);
		assertThat(takenOver - frozen).as("failover after the freeze, ms").isLessThan(sessionTimeoutMs + 2_000 + 1_000);
	}

	/** Whether the run's epoch is above that of every run or call the other instance started before it. */
	private static boolean aboveEveryEpochBefore(List<Run> all, String other, Run run) {
		return all.stream()
			.filter((o) -> o.instance().equals(other) || o.instance().equals(other + ":call"))
			.filter((o) -> o.start() <= run.start())
			.allMatch((o) -> o.epoch() < run.epoch());
	}

	private Process startInstance(String id, Path journal) throws IOException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		Process process = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
				FrozenLeaderMain.class.getName(), zk.connectString(), "/leader/freeze", id, journal.toString(), "4000")
			.redirectErrorStream(true)
			.start();
		this.processes.add(process);
		return process;
	}

	private static List<Run> runs(Path journal, String id) throws IOException {
		List<Run> runs = new ArrayList<>();
		for (String line : Files.readAllLines(journal)) {
			String[] parts = line.trim().split(" ");
			if (parts.length == 5 && (id == null || parts[0].equals(id))) {
				runs.add(new Run(parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long.parseLong(parts[3]),
						Long.parseLong(parts[4])));
			}
		}
		return runs;
	}

	record Run(String instance, long epoch, long fireTime, long start, long end) {
	}

}
