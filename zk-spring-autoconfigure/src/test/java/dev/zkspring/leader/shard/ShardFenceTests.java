package dev.zkspring.leader.shard;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.leader.shard.ShardedJobsApp.Instance;
import dev.zkspring.leader.shard.ShardedJobsApp.Run;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A deposed owner is refused: an instance about to claim its shard is held on a latch, the others take
 * it for lost and hand the shard over, it comes back (its member node re-created, as after a new
 * session) and only then tries its claim, before the new owner claims. The claim checks the dispatch
 * node's version it read, which the handover changed: refused, and the shard runs once, on the new owner.
 */
class ShardFenceTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final ShardedJobsApp.Instances instances = new ShardedJobsApp.Instances(zk, "test.period-millis=1000",
			"zk.quartz.jobs.report.shards=2", "test.recovery=true");

	@Test
	void aDeposedOwnerHeldAtTheMomentOfItsClaimIsRefusedAndTheShardRunsOnceOnTheNewOwner() throws Exception {
		Instance a = this.instances.start("a");
		this.instances.start("b");
		await().atMost(Duration.ofSeconds(20)).until(() -> ShardedJobsApp.runs.stream().map(Run::instance)
			.distinct().count() == 2);

		AtomicBoolean armed = new AtomicBoolean(true);
		AtomicReference<long[]> held = new AtomicReference<>();
		CountDownLatch aHeld = new CountDownLatch(1);
		CountDownLatch aRelease = new CountDownLatch(1);
		CountDownLatch bHeld = new CountDownLatch(1);
		CountDownLatch bRelease = new CountDownLatch(1);
		Set<String> refusals = ConcurrentHashMap.newKeySet();
		ShardRunner.onRefused = (instance, job, fireTime, shard) -> refusals.add(instance + "@" + fireTime + "#" + shard);
		ShardRunner.beforeClaim = (instance, job, fireTime, shard) -> {
			if (instance.equals("a") && armed.getAndSet(false)) {
				held.set(new long[] { fireTime, shard });
				aHeld.countDown();
				awaitQuietly(aRelease);
				return;
			}
			long[] captured = held.get();
			if (instance.equals("b") && captured != null && captured[0] == fireTime && captured[1] == shard) {
				bHeld.countDown();
				awaitQuietly(bRelease);
			}
		};
		assertThat(aHeld.await(10, TimeUnit.SECONDS)).as("a about to claim a shard").isTrue();
		long fireTime = held.get()[0];
		int shard = (int) held.get()[1];
		// the others take a for lost: b is given a's shard, and is held just before its claim
		a.shards().leave();
		assertThat(bHeld.await(10, TimeUnit.SECONDS)).as("b about to claim the shard handed over to it").isTrue();
		// a is back, as after a new session, and claims before b does
		a.shards().join();
		await().atMost(Duration.ofSeconds(10)).until(() -> a.client().checkExists()
			.forPath("/leader/" + this.instances.name() + ".shards/members/a") != null);
		aRelease.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> refusals.contains("a@" + fireTime + "#" + shard));
		bRelease.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> !runsOf(fireTime, shard).isEmpty());
		assertThat(runsOf(fireTime, shard)).as("instances that ran shard " + shard + " of fire time " + fireTime)
			.containsExactly("b");
	}

	private static List<String> runsOf(long fireTime, int shard) {
		return ShardedJobsApp.runs.stream().filter((run) -> run.fireTime() == fireTime && run.index() == shard)
			.map(Run::instance).toList();
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(20, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
