package dev.zkspring.lock;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
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
 * Issue 15, the freeze: a JVM holds a key with local waiters and is frozen (SIGSTOP) past its session
 * timeout; another JVM (this one) takes the key and holds it; the frozen JVM is resumed (SIGCONT) with its
 * holder told to leave at once. The shared journal (wall-clock times, fencing tokens) must show that no
 * waiter of the resumed JVM entered while the other held the key, that the resumed holder saw
 * {@code isHeld()} false, that tokens strictly increase in order of entry and that every waiter got the
 * key within its wait.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class LockFreezeMultiProcessTests {

	private static final String KEY = "frozen";

	private static final int WAITERS = 3;

	private static final long WAIT_MILLIS = 30_000;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path dir;

	private Process frozen;

	@AfterEach
	void killProcess() throws Exception {
		Path journal = this.dir.resolve("journal.txt");
		if (Files.exists(journal)) {
			System.out.println("Journal of the freeze test:\n" + Files.readString(journal));
		}
		if (this.frozen != null) {
			ChildJvms.signal(this.frozen, "CONT");
			this.frozen.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
	}

	@Test
	void waitersOfAJvmFrozenPastItsSessionNeverEnterWhileAnotherJvmHoldsTheKey() throws Exception {
		Path journal = this.dir.resolve("journal.txt");
		Files.createFile(journal);
		this.frozen = start(journal);
		int sessionTimeoutMs = ChildJvms.awaitReady(this.frozen, "the frozen JVM");
		assertThat(lines(journal, "enter frozen:holder")).hasSize(1);
		CuratorFramework observer = zk.newClient();
		LockTestSupport other = new LockTestSupport(zk.newClient());
		CountDownLatch otherHolds = new CountDownLatch(1);
		CountDownLatch otherRelease = new CountDownLatch(1);
		Thread otherThread = new Thread(() -> other.template.execute(KEY, Duration.ofSeconds(30), () -> {
			append(journal, "enter other " + System.currentTimeMillis() + " " + ZkLockContext.current().getFencingToken());
			otherHolds.countDown();
			otherRelease.await(60, TimeUnit.SECONDS);
			append(journal, "exit other " + System.currentTimeMillis());
			return null;
		}));
		otherThread.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> observer.getChildren().forPath("/locks/" + KEY).size() == 2);
		ChildJvms.signal(this.frozen, "STOP");
		long frozenAt = System.currentTimeMillis();
		assertThat(otherHolds.await(sessionTimeoutMs * 3L, TimeUnit.MILLISECONDS)).as("other JVM takes the key").isTrue();
		// the holder's release is waiting in the pipe: it leaves the moment the JVM resumes, before any event
		OutputStream stdin = this.frozen.getOutputStream();
		stdin.write("release\n".getBytes(StandardCharsets.UTF_8));
		stdin.flush();
		ChildJvms.signal(this.frozen, "CONT");
		await().atMost(Duration.ofSeconds(20)).until(() -> !lines(journal, "exit frozen:holder").isEmpty());
		// the waiters have decided: queued again behind the other JVM (two nodes), entered or failed
		await().atMost(Duration.ofSeconds(20)).until(() -> observer.getChildren().forPath("/locks/" + KEY).size() == 2
				|| lines(journal, "enter frozen:").size() > 1 || !lines(journal, "fail").isEmpty());
		otherRelease.countDown();
		otherThread.join(10_000);
		await().atMost(Duration.ofSeconds(20))
			.until(() -> lines(journal, "exit frozen:").size() == WAITERS + 1 || !lines(journal, "fail").isEmpty());

		assertThat(lines(journal, "fail")).as("waiters that did not get the key").isEmpty();
		assertThat(lines(journal, "resumed frozen:holder")).singleElement()
			.satisfies((line) -> assertThat(line[3]).as("isHeld() of the resumed holder").isEqualTo("false"));
		long otherEnter = Long.parseLong(lines(journal, "enter other").get(0)[2]);
		long otherExit = Long.parseLong(lines(journal, "exit other").get(0)[2]);
		assertThat(otherEnter).as("the other JVM entered while the first was frozen").isGreaterThan(frozenAt);
		List<String[]> entries = lines(journal, "enter ");
		assertThat(entries).hasSize(WAITERS + 2);
		for (String[] entry : entries) {
			if (!entry[1].equals("other") && !entry[1].equals("frozen:holder")) {
				assertThat(Long.parseLong(entry[2])).as("%s entered while the other JVM held the key", entry[1])
					.isGreaterThanOrEqualTo(otherExit);
				long started = Long.parseLong(lines(journal, "start " + entry[1]).get(0)[2]);
				assertThat(Long.parseLong(entry[2]) - started).as("%s waited, ms", entry[1]).isLessThan(WAIT_MILLIS);
			}
		}
		// order of entry: wall-clock time, then journal order (one process appends in order)
		List<String[]> byEntry = new ArrayList<>(entries);
		byEntry.sort((a, b) -> Long.compare(Long.parseLong(a[2]), Long.parseLong(b[2])));
		for (int i = 1; i < byEntry.size(); i++) {
			assertThat(Long.parseLong(byEntry.get(i)[3])).as("token of %s after %s", byEntry.get(i)[1], byEntry.get(i - 1)[1])
				.isGreaterThan(Long.parseLong(byEntry.get(i - 1)[3]));
		}
	}

	private Process start(Path journal) throws IOException {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		return new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
				FrozenLockMain.class.getName(), zk.connectString(), journal.toString(), "3000", KEY,
				Integer.toString(WAITERS), Long.toString(WAIT_MILLIS))
			.redirectErrorStream(true)
			.start();
	}

	private static synchronized void append(Path journal, String line) throws IOException {
		Files.writeString(journal, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
	}

	/** Journal lines starting with the prefix, split on spaces, in journal order. */
	private static List<String[]> lines(Path journal, String prefix) throws IOException {
		List<String[]> lines = new ArrayList<>();
		for (String line : Files.readAllLines(journal)) {
			if (line.startsWith(prefix)) {
				lines.add(line.trim().split(" "));
			}
		}
		return lines;
	}

}
