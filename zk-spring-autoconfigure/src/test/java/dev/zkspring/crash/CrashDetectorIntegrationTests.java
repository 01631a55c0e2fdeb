package dev.zkspring.crash;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.client.SessionLease;
import dev.zkspring.crash.SessionCard.Card;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What must never count as a death, with both instances in this JVM (nobody dies here): a holder whose
 * listener closes every connection and listens again at once, and a holder that stops its detector
 * gracefully; and who may read a session card: only the application's credentials.
 */
class CrashDetectorIntegrationTests {

	private static final String KEY = "restarted";

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final Closing closing = new Closing();

	@Test
	void aHolderWhoseListenerClosesAndListensAgainIsNotTakenForDead() throws Exception {
		Contest contest = new Contest();
		assertThat(contest.holder.detector.describe().get("inbound")).isEqualTo(1);

		contest.holder.detector.restartListener();

		// the waiter saw its connection closed and reconnected: the listener was back within the bound
		await().atMost(Duration.ofSeconds(5)).until(() -> contest.holder.detector.describe().get("inbound").equals(1));
		CrashDetectionMultiProcessTests.awaitWatching(contest.waiter.detector, "CONNECTED");
		contest.assertHolderNotTakenForDead();
	}

	@Test
	void aHolderThatStopsItsDetectorGracefullyIsNotTakenForDead() throws Exception {
		Contest contest = new Contest();

		contest.holder.detector.stop();

		// its card went before its listener: refused reconnects and no card is a goodbye, not a death
		CrashDetectionMultiProcessTests.awaitWatching(contest.waiter.detector, "GONE");
		contest.assertHolderNotTakenForDead();
	}

	@Test
	void onlyTheApplicationsCredentialsReadTheSessionSecret() throws Exception {
		CuratorFramework app = client("app:secret");
		CrashDetector detector = new CrashDetector(app, new CrashDetectionSettings("/crash", null, 0,
				Duration.ofMillis(100), true), () -> "app-1");
		detector.start();
		this.closing.add(detector::stop);
		long session = app.getZookeeperClient().getZooKeeper().getSessionId();
		String card = "/crash/" + Long.toHexString(session);
		CuratorFramework sameCredentials = client("app:secret");
		await().atMost(Duration.ofSeconds(5)).until(() -> sameCredentials.checkExists().forPath(card) != null);

		Card read = SessionCard.decode(session, sameCredentials.getData().forPath(card));
		assertThat(read).isNotNull();
		assertThat(read.password()).isEqualTo(app.getZookeeperClient().getZooKeeper().getSessionPasswd());
		assertThat(read.instance()).isEqualTo("app-1");
		for (CuratorFramework outsider : List.of(client("other:secret"), client(null))) {
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> outsider.getData().forPath(card));
			assertThat(new SessionCard(outsider, "/crash", true).read(session, null)).isNull();
		}
	}

	private CuratorFramework client(String digest) throws InterruptedException {
		return this.closing.client(zk.connectString(), 10_000, digest);
	}

	/** A holder of {@link #KEY} and a waiter for it, whose detector watches the holder. */
	private final class Contest {

		final Instance holder;

		final Instance waiter;

		final long holderSession;

		final CountDownLatch release;

		final AtomicBoolean waiterEntered;

		Contest() throws Exception {
			this.holder = new Instance(client(null));
			this.waiter = new Instance(client(null));
			this.holderSession = this.holder.session();
			this.release = this.holder.hold(KEY);
			this.waiterEntered = this.waiter.waitFor(KEY);
			CrashDetectionMultiProcessTests.awaitWatching(this.waiter.detector, "CONNECTED");
		}

		/** Nothing was taken from the holder; the waiter enters only once the holder lets go. */
		void assertHolderNotTakenForDead() throws Exception {
			assertThat(this.waiter.detector.deathsDetected()).isZero();
			assertThat(this.holder.session()).isEqualTo(this.holderSession);
			assertThat(this.holder.template.getHeldLocks()).hasSize(1);
			assertThat(this.waiterEntered).isFalse();
			this.release.countDown();
			await().atMost(Duration.ofSeconds(5)).untilTrue(this.waiterEntered);
		}

	}

	/** One instance: a session, its detector and its lock template. */
	private final class Instance {

		final CuratorFramework client;

		final CrashDetector detector;

		final ZkLockTemplate template;

		Instance(CuratorFramework client) throws Exception {
			this.client = client;
			this.detector = new CrashDetector(client, CrashDetectionSettings.defaults(false), () -> "instance");
			this.detector.start();
			closing.add(this.detector::stop);
			SessionLease lease = SessionLease.start(client);
			closing.add(lease);
			this.template = new ZkLockTemplate(client, lease, ZkLockTemplate.Settings.defaults(), (event) -> {
			});
			this.template.watchPeersWith(this.detector);
			closing.add(this.template::destroy);
			String card = "/crash/" + Long.toHexString(session());
			await().atMost(Duration.ofSeconds(5)).until(() -> client.checkExists().forPath(card) != null);
		}

		long session() throws Exception {
			return this.client.getZookeeperClient().getZooKeeper().getSessionId();
		}

		/** Hold the key on a thread of its own until the returned latch opens. */
		CountDownLatch hold(String key) throws InterruptedException {
			CountDownLatch inside = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			Thread thread = new Thread(() -> this.template.execute(key, Duration.ofSeconds(5), () -> {
				inside.countDown();
				release.await(30, TimeUnit.SECONDS);
				return null;
			}));
			thread.setDaemon(true);
			thread.start();
			assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
			closing.add(release::countDown);
			return release;
		}

		/** Wait for the key on a thread of its own; true once it entered. */
		AtomicBoolean waitFor(String key) {
			AtomicBoolean entered = new AtomicBoolean();
			Thread thread = new Thread(() -> this.template.execute(key, Duration.ofSeconds(30), () -> {
				entered.set(true);
				return null;
			}));
			thread.setDaemon(true);
			thread.start();
			return entered;
		}

	}

}
