package dev.zkspring.crash;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.client.SessionLease;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.test.ChildJvms;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 42 with the peer in a JVM of its own: {@code kill -9} of the leader makes the next in line (this
 * JVM) lead, and of a lock holder lets the waiter (this JVM) hold, within a fraction of the 4 s session
 * timeout; a leader frozen with SIGSTOP is never taken for dead: no takeover before its session expires.
 */
@EnabledOnOs({ OS.LINUX, OS.MAC })
class CrashDetectionMultiProcessTests {

	private static final int SESSION_TIMEOUT_MS = 4_000;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final List<AutoCloseable> closing = new ArrayList<>();

	private Process peer;

	@AfterEach
	void stopAll() throws Exception {
		if (this.peer != null) {
			ChildJvms.signal(this.peer, "CONT");
			this.peer.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
		}
		for (int i = this.closing.size() - 1; i >= 0; i--) {
			this.closing.get(i).close();
		}
	}

	@Test
	void nextInLineLeadsWithinAFractionOfTheSessionTimeoutAfterTheLeaderIsKilled() throws Exception {
		Follower follower = followPeerLeading("/leader/crash-kill");
		int sessionTimeoutMs = follower.sessionTimeoutMs();
		CrashDetector detector = follower.detector();
		ZkLeaderElection successor = follower.successor();
		assertThat(successor.isLeader()).isFalse();

		long killed = kill();
		await().atMost(Duration.ofMillis(sessionTimeoutMs)).pollInterval(Duration.ofMillis(2)).until(successor::isLeader);
		long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);

		System.out.println("kill -9 of the leader -> successor leads: " + tookMs + " ms (session timeout "
				+ sessionTimeoutMs + " ms)");
		assertThat(tookMs).as("failover after kill -9, ms, with a %d ms session", sessionTimeoutMs)
			.isLessThan(sessionTimeoutMs / 4);
		assertThat(detector.deathsDetected()).isEqualTo(1);
		await().atMost(Duration.ofSeconds(5)).until(() -> detector.sessionsEnded() == 1);
	}

	@Test
	void theLeaderEndsTheSessionOfTheLastInLineWithinAFractionOfTheSessionTimeoutWhenItIsKilled() throws Exception {
		// this JVM leads; the peer joins behind it, last in line, so nobody behind watches it but the leader
		CuratorFramework client = client();
		CrashDetector detector = detector(client);
		ZkLeaderElection leader = election(client, "/leader/crash-last", detector);
		await().atMost(Duration.ofSeconds(5)).until(leader::isLeader);
		int sessionTimeoutMs = startPeer("member", "/leader/crash-last");
		await().atMost(Duration.ofSeconds(5)).until(() -> leader.participants().size() == 2);
		awaitWatching(detector, "CONNECTED");

		long killed = kill();
		await().atMost(Duration.ofMillis(sessionTimeoutMs)).pollInterval(Duration.ofMillis(2))
			.until(() -> leader.participants().size() == 1);
		long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);

		System.out.println("kill -9 of the last in line -> its latch node gone: " + tookMs + " ms (session timeout "
				+ sessionTimeoutMs + " ms)");
		assertThat(tookMs).as("last member cleared after kill -9, ms, with a %d ms session", sessionTimeoutMs)
			.isLessThan(sessionTimeoutMs / 4);
		assertThat(detector.deathsDetected()).isEqualTo(1);
		assertThat(leader.isLeader()).isTrue();
	}

	@Test
	void waiterHoldsWithinAFractionOfTheSessionTimeoutAfterTheHolderIsKilled() throws Exception {
		String key = "crash-kill";
		int sessionTimeoutMs = startPeer("lock", key);
		CuratorFramework client = client();
		CrashDetector detector = detector(client);
		ZkLockTemplate template = new ZkLockTemplate(client, lease(client),
				new ZkLockTemplate.Settings(CrashPeerMain.LOCK_ROOT, Duration.ofSeconds(3), 16, false), (event) -> {
				});
		template.watchPeersWith(detector);
		this.closing.add(template::destroy);
		AtomicLong entered = new AtomicLong();
		CountDownLatch waiting = new CountDownLatch(1);
		Thread waiter = new Thread(() -> {
			waiting.countDown();
			template.execute(key, Duration.ofSeconds(30), () -> {
				entered.set(System.nanoTime());
				return null;
			});
		});
		waiter.start();
		waiting.await();
		awaitWatching(detector, "CONNECTED");
		assertThat(entered.get()).isZero();

		long killed = kill();
		waiter.join(sessionTimeoutMs);
		assertThat(entered.get()).as("the waiter entered").isNotZero();
		long tookMs = TimeUnit.NANOSECONDS.toMillis(entered.get() - killed);

		System.out.println("kill -9 of the lock holder -> waiter holds: " + tookMs + " ms (session timeout "
				+ sessionTimeoutMs + " ms)");
		assertThat(tookMs).as("lock failover after kill -9, ms, with a %d ms session", sessionTimeoutMs)
			.isLessThan(sessionTimeoutMs / 4);
		await().atMost(Duration.ofSeconds(5)).until(() -> detector.sessionsEnded() == 1);
	}

	@Test
	void aFrozenLeaderIsNotTakenForDeadAndLosesOnlyWhenItsSessionExpires() throws Exception {
		Follower follower = followPeerLeading("/leader/crash-freeze");
		int sessionTimeoutMs = follower.sessionTimeoutMs();
		CrashDetector detector = follower.detector();
		ZkLeaderElection successor = follower.successor();

		ChildJvms.signal(this.peer, "STOP");
		long frozen = System.nanoTime();
		// the server expires the session no sooner than the timeout after it last heard from the peer
		await().during(Duration.ofMillis(sessionTimeoutMs - 500)).atMost(Duration.ofMillis(sessionTimeoutMs))
			.until(() -> !successor.isLeader());
		await().atMost(Duration.ofMillis(sessionTimeoutMs * 3L)).until(successor::isLeader);
		long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - frozen);

		System.out.println("SIGSTOP of the leader -> successor leads: " + tookMs + " ms (session timeout "
				+ sessionTimeoutMs + " ms)");
		assertThat(tookMs).isGreaterThanOrEqualTo(sessionTimeoutMs - 500);
		assertThat(detector.deathsDetected()).isZero();
	}

	/** The peer leads the latch in its JVM; this JVM is next in line and its detector watches the peer. */
	private Follower followPeerLeading(String latch) throws Exception {
		int sessionTimeoutMs = startPeer("leader", latch);
		CuratorFramework client = client();
		CrashDetector detector = detector(client);
		ZkLeaderElection successor = election(client, latch, detector);
		await().atMost(Duration.ofSeconds(5)).until(() -> successor.participants().size() == 2);
		awaitWatching(detector, "CONNECTED");
		return new Follower(sessionTimeoutMs, detector, successor);
	}

	private record Follower(int sessionTimeoutMs, CrashDetector detector, ZkLeaderElection successor) {
	}

	private int startPeer(String mode, String target) throws Exception {
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		this.peer = new ProcessBuilder(java, "-Xmx128m", "-cp", System.getProperty("java.class.path"),
				CrashPeerMain.class.getName(), zk.connectString(), Integer.toString(SESSION_TIMEOUT_MS), mode, target)
			.redirectErrorStream(true)
			.start();
		return ChildJvms.awaitReady(this.peer, "the peer's JVM");
	}

	/** SIGKILL the peer; the moment it was sent (nanoTime). */
	private long kill() throws Exception {
		long killed = System.nanoTime();
		this.peer.destroyForcibly();
		assertThat(this.peer.waitFor(10, TimeUnit.SECONDS)).isTrue();
		return killed;
	}

	private CuratorFramework client() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(zk.connectString())
			.sessionTimeoutMs(SESSION_TIMEOUT_MS)
			.connectionTimeoutMs(2_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		client.start();
		this.closing.add(client);
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private SessionLease lease(CuratorFramework client) {
		SessionLease lease = SessionLease.start(client);
		this.closing.add(lease);
		return lease;
	}

	private CrashDetector detector(CuratorFramework client) {
		CrashDetector detector = new CrashDetector(client, CrashDetectionSettings.defaults(false), () -> "survivor");
		detector.start();
		this.closing.add(detector::stop);
		return detector;
	}

	private ZkLeaderElection election(CuratorFramework client, String latch, CrashDetector detector) {
		ZkLeaderElection election = new ZkLeaderElection(client, lease(client), latch, () -> "survivor",
				Duration.ofSeconds(1), Duration.ZERO);
		this.closing.add(detector.follow(latch, election::latchNode));
		election.start();
		this.closing.add(election::stop);
		return election;
	}

	@SuppressWarnings("unchecked")
	static void awaitWatching(CrashDetector detector, String state) {
		await().atMost(Duration.ofSeconds(5)).until(() -> {
			List<Map<String, Object>> watching = (List<Map<String, Object>>) detector.describe().get("watching");
			return watching.size() == 1 && state.equals(watching.get(0).get("state"));
		});
	}

}
