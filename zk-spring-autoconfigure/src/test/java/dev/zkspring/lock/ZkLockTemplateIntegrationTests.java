package dev.zkspring.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/** Lock semantics through {@link ZkLockTemplate}, with clients of their own sessions standing in for JVMs. */
class ZkLockTemplateIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void readersOfTwoJvmsShareTheKey() throws Exception {
		LockTestSupport first = new LockTestSupport(zk.newClient());
		LockTestSupport second = new LockTestSupport(zk.newClient());
		LockTestSupport.holdWhile(first, ZkLock.Mode.READ, "shared", () -> {
			assertThat(second.template.tryExecute("shared", ZkLock.Mode.READ, Duration.ZERO, () -> "read").toOptional())
				.contains("read");
		});
	}

	@Test
	void aReaderExcludesWritersAndMutexHoldersOfOtherJvmsAndOfItsOwn() throws Exception {
		LockTestSupport first = new LockTestSupport(zk.newClient());
		LockTestSupport second = new LockTestSupport(zk.newClient());
		LockTestSupport.holdWhile(first, ZkLock.Mode.READ, "shared", () -> {
			assertThat(second.template.tryExecute("shared", ZkLock.Mode.WRITE, Duration.ofMillis(200), () -> "w").isBusy())
				.isTrue();
			assertThat(second.template.tryExecute("shared", ZkLock.Mode.MUTEX, Duration.ZERO, () -> "m").isBusy()).isTrue();
			assertThat(first.template.tryExecute("shared", ZkLock.Mode.WRITE, Duration.ofMillis(200), () -> "w").isBusy())
				.isTrue();
		});
		assertThat(second.template.tryExecute("shared", ZkLock.Mode.WRITE, Duration.ofSeconds(2), () -> "w").toOptional())
			.contains("w");
	}

	@Test
	void aWriterExcludesReadersOfOtherJvms() throws Exception {
		LockTestSupport first = new LockTestSupport(zk.newClient());
		LockTestSupport second = new LockTestSupport(zk.newClient());
		LockTestSupport.holdWhile(first, ZkLock.Mode.WRITE, "shared", () -> assertThat(
				second.template.tryExecute("shared", ZkLock.Mode.READ, Duration.ofMillis(200), () -> "r").isBusy())
			.isTrue());
	}

	@Test
	void upgradingAReadLockIsRefusedNotDeadlocked() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient());
		long start = System.nanoTime();
		assertThatExceptionOfType(ZkLockUpgradeException.class)
			.isThrownBy(() -> jvm.template.execute("upgrade", ZkLock.Mode.READ, Duration.ofSeconds(5),
					() -> jvm.template.execute("upgrade", ZkLock.Mode.WRITE, Duration.ofSeconds(5), () -> "never")))
			.withMessageContaining("'upgrade' is held for READ");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
	}

	@Test
	void reentryOnTheSameThreadDoesNotTouchZooKeeper() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		RoundTrips trips = RoundTrips.of(client);
		String result = jvm.template.execute("reentrant", Duration.ofSeconds(1), () -> {
			ZkLockContext outer = ZkLockContext.current();
			int before = trips.count();
			String inner = jvm.template.execute("reentrant", ZkLock.Mode.READ, Duration.ZERO,
					() -> jvm.template.execute("reentrant", Duration.ZERO, () -> "inner"));
			assertThat(trips.count()).isEqualTo(before);
			assertThat(outer.isHeld()).isTrue();
			return inner;
		});
		assertThat(result).isEqualTo("inner");
	}

	@Test
	void busyCallReturnsWithinTheWaitPlusOneSecond() throws Exception {
		LockTestSupport first = new LockTestSupport(zk.newClient());
		LockTestSupport second = new LockTestSupport(zk.newClient());
		LockTestSupport.holdWhile(first, ZkLock.Mode.MUTEX, "slow", () -> {
			long start = System.nanoTime();
			assertThatExceptionOfType(ZkLockBusyException.class)
				.isThrownBy(() -> second.template.execute("slow", Duration.ofMillis(1500), () -> "never"))
				.satisfies((ex) -> assertThat(ex.getWaitTime()).isEqualTo(Duration.ofMillis(1500)));
			Duration took = Duration.ofNanos(System.nanoTime() - start);
			assertThat(took).isBetween(Duration.ofMillis(1400), Duration.ofMillis(2500));
		});
	}

	@Test
	void tryOnceOnABusyKeyCostsOneRoundTripAndCreatesNoNode() throws Exception {
		LockTestSupport holder = new LockTestSupport(zk.newClient());
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		LockTestSupport.holdWhile(holder, ZkLock.Mode.MUTEX, "busy-once", () -> {
			RoundTrips trips = RoundTrips.of(client);
			assertThat(jvm.template.tryExecute("busy-once", Duration.ZERO, () -> "never").isBusy()).isTrue();
			assertThat(trips.operations()).containsExactly("GetChildrenBuilderImpl-Foreground");
		});
	}

	@Test
	void uncontendedAcquireAndReleaseCostNoMoreRoundTripsThanCuratorsMutex() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		jvm.template.execute("warm", Duration.ofSeconds(1), () -> "creates the parents once");
		InterProcessMutex mutex = new InterProcessMutex(client, "/curator-locks/warm");
		mutex.acquire();
		mutex.release();
		RoundTrips curator = RoundTrips.of(client);
		mutex.acquire();
		mutex.release();
		int curatorTrips = curator.count();
		RoundTrips ours = RoundTrips.of(client);
		jvm.template.execute("warm", Duration.ofSeconds(1), () -> "body");
		await().atMost(Duration.ofSeconds(5)).until(() -> ours.count() >= 3);
		assertThat(ours.count()).isLessThanOrEqualTo(curatorTrips);
	}

	@Test
	void hostileKeysStayOneNodeDirectlyUnderTheRoot() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		for (String key : List.of("../config", "a/b", "\u0000", ".", "..", "/", "%2F", "zookeeper", "ä")) {
			String path = jvm.template.execute(key, Duration.ofSeconds(2), () -> {
				String lockPath = ZkLockContext.current().getPath();
				assertThat(client.getChildren().forPath(lockPath)).hasSize(1);
				return lockPath;
			});
			assertThat(path).startsWith("/locks/");
			String name = path.substring("/locks/".length());
			assertThat(name).doesNotContain("/").isNotIn(".", "..").matches("[A-Za-z0-9_:%-]+");
		}
		assertThat(LockKeys.encode("a/b")).isNotEqualTo(LockKeys.encode("a%2Fb"));
		assertThat(client.getChildren().forPath("/")).doesNotContain("config");
	}

	@Test
	void aStrayNodeOfThisJvmLeftByARetriedCreateIsDeletedInsteadOfBlockingEveryone() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		client.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath("/locks/stray/" + jvm.template.registry().jvmPrefix + "0-X");
		assertThat(jvm.template.tryExecute("stray", Duration.ofSeconds(5), () -> "not blocked").toOptional()).contains("not blocked");
		LockTestSupport other = new LockTestSupport(zk.newClient());
		assertThat(other.template.tryExecute("stray", Duration.ofSeconds(5), () -> "nor others").toOptional()).contains("nor others");
	}

	@Test
	void emptyAndOverlongKeysAreRejected() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient());
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> jvm.template.execute("", Duration.ZERO, () -> "never"))
			.withMessageContaining("must not be empty");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> jvm.template.execute("x".repeat(10_240), Duration.ZERO, () -> "never"))
			.withMessageContaining("10240 characters is longer than the 512 allowed");
		assertThat(jvm.template.execute("y".repeat(512), Duration.ZERO, () -> "ok")).isEqualTo("ok");
	}

	@Test
	void threadsOfOneJvmQueueBehindOneZooKeeperNode() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		jvm.template.execute("one-node", Duration.ofSeconds(1), () -> "creates the parents");
		RoundTrips trips = RoundTrips.of(client);
		List<Integer> nodesSeen = new CopyOnWriteArrayList<>();
		CountDownLatch done = new CountDownLatch(8);
		for (int t = 0; t < 8; t++) {
			new Thread(() -> {
				for (int i = 0; i < 20; i++) {
					jvm.template.execute("one-node", Duration.ofSeconds(20),
							() -> nodesSeen.add(client.getChildren().forPath("/locks/one-node").size()));
				}
				done.countDown();
			}).start();
		}
		assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
		assertThat(nodesSeen).hasSize(160).containsOnly(1);
		long creates = trips.operations().stream().filter((name) -> name.startsWith("CreateBuilderImpl")).count();
		assertThat(creates).as("nodes created for 160 contended acquisitions").isLessThan(40);
	}

	@Test
	void fencingTokenIsFreeForTheFirstHolderOfATurnAndOneWriteForAHolderThatTookOver() throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		jvm.template.execute("token-free", Duration.ofSeconds(1), () -> {
			RoundTrips trips = RoundTrips.of(client);
			ZkLockContext.current().getFencingToken();
			assertThat(trips.count()).isZero();
			return null;
		});
		CountDownLatch firstHolds = new CountDownLatch(1);
		CountDownLatch releaseFirst = new CountDownLatch(1);
		long[] tokens = new long[2];
		List<String> secondTrips = new CopyOnWriteArrayList<>();
		Thread first = new Thread(() -> jvm.template.execute("token-cost", Duration.ofSeconds(10), () -> {
			tokens[0] = ZkLockContext.current().getFencingToken();
			firstHolds.countDown();
			return releaseFirst.await(20, TimeUnit.SECONDS);
		}));
		Thread second = new Thread(() -> jvm.template.execute("token-cost", Duration.ofSeconds(10), () -> {
			RoundTrips trips = RoundTrips.of(client);
			tokens[1] = ZkLockContext.current().getFencingToken();
			return secondTrips.addAll(trips.operations());
		}));
		first.start();
		assertThat(firstHolds.await(10, TimeUnit.SECONDS)).isTrue();
		second.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> jvm.template.registry().waiting("token-cost") == 1);
		releaseFirst.countDown();
		first.join(10_000);
		second.join(10_000);
		assertThat(secondTrips).containsExactly("SetDataBuilderImpl-Foreground");
		assertThat(tokens[1]).isGreaterThan(tokens[0]);
	}

	@Test
	void threadsOfOneJvmGetTheKeyInTheOrderTheyAskedForIt() throws Exception {
		LockTestSupport jvm = new LockTestSupport(zk.newClient());
		List<Integer> order = new CopyOnWriteArrayList<>();
		List<Thread> threads = new ArrayList<>();
		LockTestSupport.holdWhile(jvm, ZkLock.Mode.MUTEX, "fifo", () -> {
			for (int i = 0; i < 5; i++) {
				int number = i;
				Thread thread = new Thread(
						() -> jvm.template.execute("fifo", Duration.ofSeconds(20), () -> order.add(number)));
				threads.add(thread);
				thread.start();
				await().atMost(Duration.ofSeconds(5)).until(() -> jvm.template.registry().waiting("fifo") == number + 1);
			}
		});
		for (Thread thread : threads) {
			thread.join(10_000);
		}
		assertThat(order).containsExactly(0, 1, 2, 3, 4);
	}

	@Test
	void fencingTokensStrictlyIncreaseAcrossJvmsAndWithinOne() throws Exception {
		List<LockTestSupport> jvms = List.of(new LockTestSupport(zk.newClient()),
				new LockTestSupport(zk.newClient()));
		List<Long> tokens = new CopyOnWriteArrayList<>();
		CountDownLatch done = new CountDownLatch(jvms.size() * 3);
		for (LockTestSupport jvm : jvms) {
			for (int t = 0; t < 3; t++) {
				new Thread(() -> {
					for (int i = 0; i < 30; i++) {
						jvm.template.execute("fenced", Duration.ofSeconds(20), () -> {
							long token = ZkLockContext.current().getFencingToken();
							assertThat(ZkLockContext.current().getFencingToken()).isEqualTo(token);
							return tokens.add(token);
						});
					}
					done.countDown();
				}).start();
			}
		}
		assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
		assertThat(tokens).hasSize(180).isSorted().doesNotHaveDuplicates();
	}

}
