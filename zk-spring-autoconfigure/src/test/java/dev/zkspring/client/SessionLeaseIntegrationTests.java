package dev.zkspring.client;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The session lease against a real ZooKeeper: valid while the session is certainly alive, lapsed the
 * moment time says it could have expired (without any connection event), and never valid for a
 * session that was replaced.
 */
class SessionLeaseIntegrationTests {

	@RegisterExtension
	final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private CuratorFramework client;

	private SessionLease lease;

	@AfterEach
	void close() {
		if (this.lease != null) {
			this.lease.close();
		}
		if (this.client != null) {
			this.client.close();
		}
	}

	@Test
	void leaseIsValidOnceConnectedAndIsRenewedWhileTheClientIsIdle() throws Exception {
		this.client = startClient(3_000);
		this.lease = SessionLease.start(this.client);
		await().atMost(Duration.ofSeconds(5)).until(this.lease::isValid);
		long timeoutMs = this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
		long session = this.lease.session();
		// stay idle for two whole session timeouts: the lease's own reads keep it valid throughout
		await().pollInterval(Duration.ofMillis(20))
			.during(Duration.ofMillis(timeoutMs * 2))
			.atMost(Duration.ofMillis(timeoutMs * 3))
			.until(() -> this.lease.isValidFor(session)
					&& this.lease.remainingNanos() <= TimeUnit.MILLISECONDS.toNanos(timeoutMs));
	}

	@Test
	void leaseLapsesByTimeWhenTheServerIsGoneEvenWhileCuratorsConnectionStateThreadIsBlocked() throws Exception {
		this.client = startClient(3_000);
		CountDownLatch release = new CountDownLatch(1);
		ConnectionStateListener blocking = (c, state) -> {
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		};
		this.client.getConnectionStateListenable().addListener(blocking);
		this.lease = SessionLease.start(this.client);
		AtomicInteger lapses = new AtomicInteger();
		this.lease.addListener(lapses::incrementAndGet);
		await().atMost(Duration.ofSeconds(5)).until(this.lease::isValid);
		long timeoutMs = this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
		long stoppedAt = System.nanoTime();
		this.zk.stopServer();
		try {
			await().atMost(Duration.ofMillis(timeoutMs)).until(() -> !this.lease.isValid());
			// in doubt before the session could have expired on the server
			assertThat(System.nanoTime() - stoppedAt).isLessThan(TimeUnit.MILLISECONDS.toNanos(timeoutMs));
			await().atMost(Duration.ofSeconds(1)).until(() -> lapses.get() == 1);
		}
		finally {
			release.countDown();
			this.zk.restartServer();
		}
	}

	@Test
	void leaseIsNeverValidAgainForASessionThatExpired() throws Exception {
		this.client = startClient(10_000);
		this.lease = SessionLease.start(this.client);
		await().atMost(Duration.ofSeconds(5)).until(this.lease::isValid);
		long first = this.lease.session();
		SessionLease.Stamp oldStamp = this.lease.beforeRequest();
		ZooKeeperExtension.expireSession(this.client);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.lease.session() != first && this.lease.isValid());
		// a late reply credited to the old session changes nothing
		this.lease.replied(oldStamp);
		assertThat(this.lease.isValidFor(first)).isFalse();
		assertThat(this.lease.isValidFor(this.lease.session())).isTrue();
	}

	@Test
	void aFrozenProcessIsInDoubtTheMomentItResumesBeforeAnyEvent() throws Exception {
		this.client = startClient(10_000);
		AtomicLong clock = new AtomicLong(System.nanoTime());
		AtomicInteger lapses = new AtomicInteger();
		AtomicInteger grants = new AtomicInteger();
		// told before the lease's thread starts: a listener added after start() may miss the first grant
		this.lease = SessionLease.start(this.client, clock::get, new SessionLease.Listener() {

			@Override
			public void lapsed() {
				lapses.incrementAndGet();
			}

			@Override
			public void granted() {
				grants.incrementAndGet();
			}

		});
		assertThat(this.lease.awaitValid(5, TimeUnit.SECONDS)).isTrue();
		// the listeners are told on the lease's thread: a bound for a loaded machine (1 s failed once in CI)
		await().atMost(Duration.ofSeconds(5)).until(() -> grants.get() == 1);
		long session = this.lease.session();
		// the process "resumes" a whole session timeout later: no reply, no event, and yet in doubt
		clock.addAndGet(TimeUnit.SECONDS.toNanos(10));
		assertThat(this.lease.isValidFor(session)).isFalse();
		await().atMost(Duration.ofSeconds(5)).until(() -> lapses.get() == 1);
		// the session did survive: the next read grants the lease again, for the same session
		await().atMost(Duration.ofSeconds(2)).until(() -> this.lease.isValidFor(session));
		await().atMost(Duration.ofSeconds(1)).until(() -> grants.get() == 2);
	}

	@Test
	void aReplyRenewsTheLeaseFromTheMomentItsRequestWasSent() throws Exception {
		this.client = startClient(10_000);
		AtomicLong clock = new AtomicLong(System.nanoTime());
		this.lease = SessionLease.start(this.client, clock::get);
		assertThat(this.lease.awaitValid(5, TimeUnit.SECONDS)).isTrue();
		long timeoutNanos = TimeUnit.MILLISECONDS
			.toNanos(this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs());
		// small steps keep more than T/2 left, so the lease's own reads stay out of this
		clock.addAndGet(timeoutNanos / 10);
		SessionLease.Stamp sent = this.lease.beforeRequest();
		clock.addAndGet(timeoutNanos / 20);
		this.lease.replied(sent);
		// 2T/3 from the send, not from the reply
		assertThat(this.lease.remainingNanos()).isEqualTo(timeoutNanos * 2 / 3 - timeoutNanos / 20);
	}

	private CuratorFramework startClient(int sessionTimeoutMs) throws InterruptedException {
		CuratorFramework started = CuratorFrameworkFactory.builder()
			.connectString(this.zk.connectString())
			.sessionTimeoutMs(sessionTimeoutMs)
			.connectionTimeoutMs(2_000)
			.retryPolicy(new RetryOneTime(100))
			.build();
		started.start();
		assertThat(started.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return started;
	}

}
