package dev.zkspring.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Issue 15, scenarios 1, 2, 3 and 6: a hold is bound to the session that confirmed it, doubt comes
 * before any listener, a turn confirmed just before the connection drops admits nobody, and a deleted
 * node is a loss reported at once. Each race is forced (a blocked listener, a hook, a server-side expiry).
 */
class LockSessionFaultTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void afterASessionChangeTheLocalWaiterQueuesAgainInsteadOfBeingHandedTheHold() throws Exception {
		CuratorFramework client = zk.newClient();
		CountDownLatch unblockCurator = new CountDownLatch(1);
		// registered before the lock's listener: Curator's connection-state thread stays busy with it
		LockTestSupport.blockConnectionStateThread(client, unblockCurator);
		LockTestSupport jvm = new LockTestSupport(client);
		LockTestSupport other = new LockTestSupport(zk.newClient());
		try {
			LockFailoverTests.Holder holder = LockFailoverTests.Holder.start(jvm, "k1");
			OtherJvm otherJvm = new OtherJvm(other, "k1");
			Thread waiter = localWaiter(jvm, "k1", otherJvm);
			await().atMost(Duration.ofSeconds(5)).until(() -> jvm.template.registry().waiting("k1") == 1);
			long session = client.getZookeeperClient().getInstanceIndex();
			ZooKeeperExtension.expireSession(client);
			await().atMost(Duration.ofSeconds(20)).until(() -> client.getZookeeperClient().getInstanceIndex() != session
					&& client.getZookeeperClient().isConnected());
			assertThat(holder.context.isHeld()).isFalse();
			otherJvm.takeAndHold();
			holder.finish();
			otherJvm.awaitWaiterQueuedBehind(client);
			assertThat(otherJvm.entries).containsExactly("other");
			otherJvm.release();
			waiter.join(20_000);
			assertThat(otherJvm.entries).containsExactly("other", "waiter");
		}
		finally {
			unblockCurator.countDown();
		}
	}

	@Test
	void aSlowLostEventListenerDelaysNeitherTheDoubtOfOtherKeysNorCuratorsThread() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		CountDownLatch gate = new CountDownLatch(1);
		jvm.eventGate = gate;
		CountDownLatch laterListenerTold = new CountDownLatch(1);
		client.getConnectionStateListenable().addListener((c, state) -> {
			if (state == ConnectionState.SUSPENDED) {
				laterListenerTold.countDown();
			}
		});
		LockFailoverTests.Holder a = LockFailoverTests.Holder.start(jvm, "slow-a");
		LockFailoverTests.Holder b = LockFailoverTests.Holder.start(jvm, "slow-b");
		zk.stopServer();
		try {
			assertThat(jvm.eventArrived.await(10, TimeUnit.SECONDS)).isTrue();
			// the first listener call is blocked at the gate; both keys are in doubt all the same
			await().atMost(Duration.ofSeconds(2)).until(() -> !a.context.isHeld() && !b.context.isHeld());
			assertThat(laterListenerTold.await(2, TimeUnit.SECONDS)).isTrue();
			assertThat(jvm.events).isEmpty();
		}
		finally {
			gate.countDown();
			zk.restartServer();
		}
		a.finish();
		b.finish();
		await().atMost(Duration.ofSeconds(5)).until(() -> jvm.lostEvents().size() == 2);
	}

	@Test
	void aTurnConfirmedJustBeforeTheConnectionDropsAdmitsNobody() throws Exception {
		connectionDropsAt(true);
	}

	@Test
	void aDoubtRaisedBetweenTheAdmissionCheckAndTheGrantAdmitsNobody() throws Exception {
		connectionDropsAt(false);
	}

	private void connectionDropsAt(boolean confirmation) throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		List<String> observed = new CopyOnWriteArrayList<>();
		jvm.template.addObserver(new ZkLockObserver() {
			@Override
			public void acquired(String name, ZkLock.Mode mode, Duration waited) {
				observed.add("acquired");
			}
		});
		jvm.template.registry().hooks = new LockHooks() {
			@Override
			void confirmed(String key) {
				if (confirmation) {
					drop();
				}
			}

			@Override
			void admitting(String key) {
				if (!confirmation) {
					drop();
				}
			}

			private void drop() {
				try {
					// Curator calls its listeners in no fixed order: wait for the lock's own mark of doubt
					long before = jvm.template.registry().epoch();
					zk.stopServer();
					await().atMost(Duration.ofSeconds(10)).until(() -> jvm.template.registry().epoch() > before);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}
		};
		AtomicBoolean ran = new AtomicBoolean();
		try {
			assertThatExceptionOfType(ZkLockUnavailableException.class)
				.isThrownBy(() -> jvm.template.execute("edge", Duration.ofSeconds(5), () -> {
					ran.set(true);
					return null;
				}));
			assertThat(ran).isFalse();
			assertThat(observed).isEmpty();
		}
		finally {
			jvm.template.registry().hooks = LockHooks.NONE;
			zk.restartServer();
		}
		assertThat(jvm.template.tryExecute("edge", Duration.ofSeconds(15), () -> "later").toOptional()).contains("later");
	}

	@Test
	void aNodeDeletedByAnotherClientIsALossReportedAtOnceAndNotHandedOn() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		LockTestSupport other = new LockTestSupport(zk.newClient());
		CuratorFramework intruder = zk.newClient();
		LockFailoverTests.Holder holder = LockFailoverTests.Holder.start(jvm, "k6");
		OtherJvm otherJvm = new OtherJvm(other, "k6");
		Thread waiter = localWaiter(jvm, "k6", otherJvm);
		await().atMost(Duration.ofSeconds(5)).until(() -> jvm.template.registry().waiting("k6") == 1);
		String ours = intruder.getChildren().forPath("/locks/k6").get(0);
		intruder.delete().forPath("/locks/k6/" + ours);
		await().atMost(Duration.ofSeconds(5)).until(() -> !holder.context.isHeld());
		await().atMost(Duration.ofSeconds(5)).until(() -> jvm.lostEvents().stream()
			.anyMatch((event) -> event.getReason() == ZkLockLostEvent.Reason.DELETED && event.getKey().equals("k6")));
		otherJvm.takeAndHold();
		holder.finish();
		otherJvm.awaitWaiterQueuedBehind(client);
		assertThat(otherJvm.entries).containsExactly("other");
		otherJvm.release();
		waiter.join(20_000);
		assertThat(otherJvm.entries).containsExactly("other", "waiter");
	}

	private static Thread localWaiter(LockTestSupport jvm, String key, OtherJvm otherJvm) {
		Thread waiter = new Thread(() -> jvm.template.execute(key, Duration.ofSeconds(40), () -> {
			otherJvm.entries.add(otherJvm.inside.get() ? "waiter while other inside" : "waiter");
			return null;
		}));
		waiter.start();
		return waiter;
	}

	/** Another JVM that takes the key and holds it until told; entries journal who entered, in order. */
	static final class OtherJvm {

		final List<String> entries = new CopyOnWriteArrayList<>();

		final AtomicBoolean inside = new AtomicBoolean();

		private final LockTestSupport jvm;

		private final String key;

		private final CountDownLatch held = new CountDownLatch(1);

		private final CountDownLatch release = new CountDownLatch(1);

		private Thread thread;

		OtherJvm(LockTestSupport jvm, String key) {
			this.jvm = jvm;
			this.key = key;
		}

		void takeAndHold() throws InterruptedException {
			this.thread = new Thread(() -> this.jvm.template.execute(this.key, Duration.ofSeconds(30), () -> {
				this.inside.set(true);
				this.entries.add("other");
				this.held.countDown();
				this.release.await(30, TimeUnit.SECONDS);
				this.inside.set(false);
				return null;
			}));
			this.thread.start();
			assertThat(this.held.await(30, TimeUnit.SECONDS)).isTrue();
		}

		/** The waiter has decided: it either entered (wrong) or queued a node behind ours (right). */
		void awaitWaiterQueuedBehind(CuratorFramework client) {
			await().atMost(Duration.ofSeconds(10)).until(() -> this.entries.size() > 1
					|| client.getChildren().forPath("/locks/" + this.key).size() == 2);
		}

		void release() throws InterruptedException {
			this.release.countDown();
			this.thread.join(10_000);
		}

	}

}
