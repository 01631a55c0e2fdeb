package dev.zkspring.lock;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 24, item 1: the read that confirms a turn arms the one-shot children watch that tells the holder
 * its node was deleted. When that watch fires before the turn is recorded (another JVM queues its node
 * in between, forced with the {@code confirmed} hook), the holder must still learn of a later deletion.
 */
class LockOwnNodeWatchTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void aHolderWhoseWatchFiredBeforeItsTurnWasRecordedIsToldWhenItsNodeIsDeleted() throws Exception {
		holderIsToldOfDeletion("watch-gap", false);
	}

	@Test
	void aWaiterWhoseWatchFiredBeforeItsTurnWasRecordedIsToldWhenItsNodeIsDeleted() throws Exception {
		holderIsToldOfDeletion("watch-gap-waiter", true);
	}

	private void holderIsToldOfDeletion(String key, boolean waitsFirst) throws Exception {
		CuratorFramework client = zk.newClient();
		LockTestSupport jvm = new LockTestSupport(client);
		LockTestSupport other = new LockTestSupport(zk.newClient());
		LockTestSupport first = new LockTestSupport(zk.newClient());
		CuratorFramework intruder = zk.newClient();
		String keyPath = "/locks/" + key;
		List<String> entries = new CopyOnWriteArrayList<>();
		AtomicBoolean hookRan = new AtomicBoolean();
		Thread[] otherThread = new Thread[1];
		jvm.template.registry().hooks = new LockHooks() {
			@Override
			void confirmed(String confirmedKey) {
				if (!hookRan.compareAndSet(false, true)) {
					return;
				}
				// another JVM queues its node behind ours: the watch the confirming read armed fires now
				otherThread[0] = new Thread(() -> other.template.execute(key, Duration.ofSeconds(30),
						() -> entries.add("other")));
				otherThread[0].start();
				await().atMost(Duration.ofSeconds(10))
					.until(() -> intruder.getChildren().forPath(keyPath).size() == 2);
				// the event thread delivers the watch before the answer of a later request of the session
				CountDownLatch answered = new CountDownLatch(1);
				try {
					client.getChildren().inBackground((c, event) -> answered.countDown()).forPath(keyPath);
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
				assertThat(LockTestSupport.awaitQuietly(answered, 10)).isTrue();
			}
		};
		LockFailoverTests.Holder[] holder = new LockFailoverTests.Holder[1];
		if (waitsFirst) {
			LockFailoverTests.Holder before = LockFailoverTests.Holder.start(first, key);
			Thread starter = new Thread(() -> {
				try {
					holder[0] = LockFailoverTests.Holder.start(jvm, key);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
			starter.start();
			// our node queues behind the first JVM's; the read after that one leaves confirms our turn
			await().atMost(Duration.ofSeconds(10)).until(() -> intruder.getChildren().forPath(keyPath).size() == 2);
			before.finish();
			starter.join(20_000);
		}
		else {
			holder[0] = LockFailoverTests.Holder.start(jvm, key);
		}
		try {
			assertThat(hookRan).isTrue();
			assertThat(holder[0]).isNotNull();
			jvm.template.registry().hooks = LockHooks.NONE;
			String ours = intruder.getChildren()
				.forPath(keyPath)
				.stream()
				.filter((child) -> child.startsWith(jvm.template.registry().jvmPrefix))
				.findFirst()
				.orElseThrow();
			// an operator or a clean-up script deletes the holder's node; the other JVM enters
			intruder.delete().forPath(keyPath + "/" + ours);
			await().atMost(Duration.ofSeconds(10)).until(() -> entries.contains("other"));
			await().atMost(Duration.ofSeconds(5)).until(() -> !holder[0].context.isHeld());
			await().atMost(Duration.ofSeconds(5)).until(() -> jvm.lostEvents()
				.stream()
				.anyMatch((event) -> event.getReason() == ZkLockLostEvent.Reason.DELETED && event.getKey().equals(key)));
		}
		finally {
			jvm.template.registry().hooks = LockHooks.NONE;
			if (holder[0] != null) {
				holder[0].finish();
			}
			if (otherThread[0] != null) {
				otherThread[0].join(20_000);
			}
		}
	}

}
