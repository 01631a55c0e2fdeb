package dev.zkspring.lock;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.Watcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.client.FakeClockLeases;
import dev.zkspring.client.SessionLease;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process resuming from a freeze sees its clock past the session lease before the lease's own thread
 * has announced the lapse (or any connection event arrived). Forced in process: the lease's clock jumps
 * an hour ahead while nothing can renew the lease or tell the lock registry. Renewals are held by holding
 * the client's event thread (the lease's reads are answered through it; a read sent after the jump would
 * otherwise heal the lease before anyone looked), and a lapse announcement is held before the registry's
 * listener. The holder must learn at once, from its turn's own lease check, that it may no longer count
 * on the key.
 */
class LockLapsedLeaseTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final AtomicLong clockOffset = new AtomicLong();

	private final CountDownLatch lapseAnnounced = new CountDownLatch(1);

	private final CountDownLatch thaw = new CountDownLatch(1);

	private SessionLease lease;

	@AfterEach
	void thaw() {
		this.thaw.countDown();
		if (this.lease != null) {
			this.lease.close();
		}
	}

	@Test
	void aHolderWhoseLeaseLapsedIsNoLongerHeldBeforeAnyEventArrived() throws Exception {
		CuratorFramework client = zk.newClient();
		this.lease = FakeClockLeases.start(client, () -> System.nanoTime() + this.clockOffset.get());
		// registered before the lock registry's listener: holding it keeps the registry from hearing of the lapse
		FakeClockLeases.holdLapseAnnouncements(this.lease, this.lapseAnnounced, this.thaw);
		ZkLockTemplate template = new ZkLockTemplate(client, this.lease,
				new ZkLockTemplate.Settings("/locks", Duration.ofSeconds(10), 16, false), (event) -> {
				});
		CountDownLatch inside = new CountDownLatch(1);
		CountDownLatch frozen = new CountDownLatch(1);
		AtomicBoolean heldAfterFreeze = new AtomicBoolean(true);
		Thread holder = new Thread(() -> template.execute("lapsed", Duration.ofSeconds(5), () -> {
			inside.countDown();
			frozen.await(30, TimeUnit.SECONDS);
			heldAfterFreeze.set(ZkLockContext.current().isHeld());
			return null;
		}));
		holder.start();
		assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
		holdEventThread(client);

		// the freeze: the clock jumps past the lease, and no reply can renew it
		this.clockOffset.set(TimeUnit.HOURS.toNanos(1));
		assertThat(this.lease.isValid()).isFalse();
		frozen.countDown();
		holder.join(10_000);

		assertThat(heldAfterFreeze).as("isHeld() of a holder whose lease lapsed, before the lapse was announced").isFalse();
		assertThat(template.getLostLockCount()).as("losses the registry heard of before the check").isZero();
	}

	/** Hold the client's event thread in a watcher until the test ends: no background reply is processed meanwhile. */
	private void holdEventThread(CuratorFramework client) throws Exception {
		CountDownLatch held = new CountDownLatch(1);
		client.checkExists().usingWatcher((Watcher) (event) -> {
			held.countDown();
			LockTestSupport.awaitQuietly(this.thaw, 60);
		}).forPath("/lapse-hold");
		client.create().forPath("/lapse-hold");
		assertThat(held.await(10, TimeUnit.SECONDS)).as("the event thread is held").isTrue();
	}

}
