package dev.zkspring.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14: an uncontended acquire costs one round trip (create and read sent back to back), and a
 * release returns once local state says the key is free while its delete completes in the background,
 * ordered before anything else this JVM asks, never letting another JVM in early, never leaving a node
 * behind when it fails.
 */
class LockRoundTripTests {

	private static final String CREATE = "CreateBuilderImpl-Background";

	private static final String READ = "GetChildrenBuilderImpl-Foreground";

	private static final String DELETE = "DeleteBuilderImpl-Background";

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void anUncontendedAcquireIsOneRoundTripAndItsDeleteIsSentAfterTheBody() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		jvm.template.execute("one-trip", Duration.ofSeconds(1), () -> "creates the key node");
		InterProcessMutex mutex = new InterProcessMutex(client, "/curator-locks/one-trip");
		mutex.acquire();
		mutex.release();
		RoundTrips curator = RoundTrips.of(client);
		mutex.acquire();
		assertThat(curator.sequential()).as("Curator's create, then its read").isEqualTo(2);
		mutex.release();
		// a lock that waits for the create's reply before it reads costs 2 round trips every time; one that
		// sends both at once costs 1, unless the machine stalls the caller between the two sends long
		// enough for the create's reply to be processed first (seen once in CI): so at least once in 5
		List<Integer> roundTrips = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			RoundTrips trips = RoundTrips.of(client);
			int[] inside = new int[2];
			jvm.template.execute("one-trip", Duration.ofSeconds(1), () -> {
				// the create's reply is traced on ZooKeeper's event thread, maybe just after the read returned
				await().atMost(Duration.ofSeconds(5)).until(() -> trips.count() >= 2);
				inside[0] = trips.count();
				inside[1] = trips.sequential();
				return null;
			});
			assertThat(inside[0]).as("requests before the body").isEqualTo(2);
			roundTrips.add(inside[1]);
			await().atMost(Duration.ofSeconds(5)).until(() -> trips.count() >= 3);
			assertThat(trips.operations()).containsExactlyInAnyOrder(CREATE, READ, DELETE);
		}
		assertThat(roundTrips).as("round trips before the body, per acquire").contains(1).allMatch((n) -> n <= 2);
	}

	@Test
	void anotherJvmEntersOnlyOnceTheBackgroundDeleteHasCommitted() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport first = new LockTestSupport(client);
		LockTestSupport second = new LockTestSupport(zk.newClient());
		AtomicReference<ZkLockContext> held = new AtomicReference<>();
		CountDownLatch holding = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(1);
		Thread holder = new Thread(() -> first.template.execute("handover", Duration.ofSeconds(5), () -> {
			held.set(ZkLockContext.current());
			holding.countDown();
			return done.await(30, TimeUnit.SECONDS);
		}));
		holder.start();
		assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
		long firstToken = held.get().getFencingToken();
		String firstNode = client.getChildren().forPath("/locks/handover").get(0);
		List<List<String>> seenInside = new CopyOnWriteArrayList<>();
		long[] secondToken = new long[1];
		Thread other = new Thread(() -> second.template.execute("handover", Duration.ofSeconds(20), () -> {
			secondToken[0] = ZkLockContext.current().getFencingToken();
			return seenInside.add(second.client.getChildren().forPath("/locks/handover"));
		}));
		other.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> client.getChildren().forPath("/locks/handover").size() == 2);
		CountDownLatch deleting = new CountDownLatch(1);
		CountDownLatch letGo = new CountDownLatch(1);
		List<Boolean> atDelete = new CopyOnWriteArrayList<>();
		first.template.registry().hooks = new LockHooks() {
			@Override
			void deleting(String key) {
				atDelete.add(held.get().isHeld());
				deleting.countDown();
				LockTestSupport.awaitQuietly(letGo, 20);
			}
		};
		done.countDown();
		assertThat(deleting.await(10, TimeUnit.SECONDS)).isTrue();
		// locally free, in ZooKeeper still ours: the other JVM waits
		assertThat(atDelete).containsExactly(false);
		assertThat(seenInside).isEmpty();
		assertThat(other.isAlive()).isTrue();
		letGo.countDown();
		holder.join(10_000);
		other.join(20_000);
		assertThat(seenInside).hasSize(1);
		assertThat(seenInside.get(0)).hasSize(1).doesNotContain(firstNode);
		assertThat(secondToken[0]).isGreaterThan(firstToken);
	}

	@Test
	void theDeleteIsSentBeforeAnyOtherThreadOfTheJvmMayAskForTheKey() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		String[] released = new String[1];
		List<String> seenAfterRelease = new ArrayList<>();
		List<String> nextAcquire = new ArrayList<>();
		AtomicBoolean once = new AtomicBoolean();
		jvm.template.registry().hooks = new LockHooks() {
			@Override
			void localLockReleased(String key) {
				if (!once.compareAndSet(false, true)) {
					return;
				}
				try {
					// same session, so this read reaches ZooKeeper after whatever the release sent before
					seenAfterRelease.addAll(client.getChildren().forPath("/locks/ordered"));
					RoundTrips trips = RoundTrips.of(client);
					jvm.template.execute("ordered", Duration.ofSeconds(5), () -> "again");
					// the create's reply is traced on ZooKeeper's event thread, maybe after the acquire returned
					await().atMost(Duration.ofSeconds(5)).until(() -> trips.operations().contains(CREATE));
					nextAcquire.addAll(trips.operations());
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}
		};
		jvm.template.execute("ordered", Duration.ofSeconds(5),
				() -> released[0] = client.getChildren().forPath("/locks/ordered").get(0));
		assertThat(seenAfterRelease).doesNotContain(released[0]);
		// no stray of ours to clear first: the new node was queued behind the delete
		assertThat(nextAcquire).contains(CREATE, READ).doesNotContain("DeleteBuilderImpl-Foreground");
		assertThat(nextAcquire.stream().filter(READ::equals)).hasSize(1);
	}

	@Test
	void aReleaseWhoseDeleteFailsReturnsAtOnceAndTheSessionStillLosesTheNode() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport first = new LockTestSupport(client);
		LockTestSupport second = new LockTestSupport(zk.newClient());
		long session = client.getZookeeperClient().getZooKeeper().getSessionId();
		AtomicBoolean once = new AtomicBoolean();
		first.template.registry().hooks = new LockHooks() {
			@Override
			void deleting(String key) {
				if (once.compareAndSet(false, true)) {
					try {
						zk.stopServer();
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}
			}
		};
		long start = System.nanoTime();
		assertThat(first.template.execute("failed-delete", Duration.ofSeconds(5), () -> "ran")).isEqualTo("ran");
		Duration releaseTook = Duration.ofNanos(System.nanoTime() - start);
		try {
			// the caller did not wait for the dropped connection (5 s connection timeout)
			assertThat(once).isTrue();
			assertThat(releaseTook).isLessThan(Duration.ofSeconds(3));
		}
		finally {
			first.template.registry().hooks = LockHooks.NONE;
			zk.restartServer();
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> client.getZookeeperClient().isConnected());
		assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).as("same session").isEqualTo(session);
		// nobody of the first JVM touches the key: only the retried delete can free it while its session lives
		ZkLockResult<List<String>> other = second.template.tryExecute("failed-delete", Duration.ofSeconds(8),
				() -> second.client.getChildren().forPath("/locks/failed-delete"));
		assertThat(other.isAcquired()).as("the other JVM got the key within the session's life").isTrue();
		assertThat(other.get()).hasSize(1);
		assertThat(first.template.tryExecute("failed-delete", Duration.ofSeconds(5), () -> "again").toOptional())
			.contains("again");
	}

	@Test
	void aReleaseWhoseSessionExpiresAtTheDeleteLeavesNothingBehindAndNoWaiterStuck() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport first = new LockTestSupport(client);
		LockTestSupport second = new LockTestSupport(zk.newClient());
		AtomicBoolean once = new AtomicBoolean();
		first.template.registry().hooks = new LockHooks() {
			@Override
			void deleting(String key) {
				if (once.compareAndSet(false, true)) {
					try {
						ZooKeeperExtension.expireSession(client);
					}
					catch (Exception ex) {
						throw new IllegalStateException(ex);
					}
				}
			}
		};
		assertThat(first.template.execute("expired-delete", Duration.ofSeconds(5), () -> "ran")).isEqualTo("ran");
		assertThat(once).isTrue();
		ZkLockResult<List<String>> other = second.template.tryExecute("expired-delete", Duration.ofSeconds(5),
				() -> second.client.getChildren().forPath("/locks/expired-delete"));
		assertThat(other.isAcquired()).isTrue();
		assertThat(other.get()).hasSize(1);
		// a thread of the first JVM asking next is served under the new session
		assertThat(first.template.tryExecute("expired-delete", Duration.ofSeconds(15), () -> "again").toOptional())
			.contains("again");
	}

}
