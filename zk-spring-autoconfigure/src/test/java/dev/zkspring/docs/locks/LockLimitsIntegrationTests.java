package dev.zkspring.docs.locks;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/locks.md's "What a lock does not protect", against a real ZooKeeper (issue 30.5): fifteen
 * concurrent visits through a caller that reads before the locked method keep one; read inside the lock,
 * or written with the fencing token, they keep all fifteen.
 */
class LockLimitsIntegrationTests {

	static final int CALLERS = 15;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty(), "zk.lock.default-wait=30s")
		.withBean(Owners.class)
		.withBean(VisitService.class)
		.withBean(VisitController.class)
		.withBean(Visits.class)
		.withBean(FencedVisits.class)
		.withBean(FencedVisitController.class);

	@Test
	void readingBeforeTheLockedMethodLosesEveryUpdateButOne() {
		this.contextRunner.run((context) -> {
			Owners owners = context.getBean(Owners.class);
			holdTheFirstReadsTogether(owners);
			concurrently(context.getBean(VisitController.class)::addVisit);
			assertThat(owners.findById(1).getVisits()).as("visits kept of %d", CALLERS).isEqualTo(1);
		});
	}

	@Test
	void readingInsideTheLockKeepsEveryUpdate() {
		this.contextRunner.run((context) -> {
			Owners owners = context.getBean(Owners.class);
			concurrently(context.getBean(Visits.class)::addVisit);
			assertThat(owners.findById(1).getVisits()).isEqualTo(CALLERS);
		});
	}

	@Test
	void theFencingTokenRefusesWritesOfStaleReadsSoEveryUpdateIsKept() {
		this.contextRunner.run((context) -> {
			Owners owners = context.getBean(Owners.class);
			FencedVisits visits = context.getBean(FencedVisits.class);
			Owner stale = owners.findById(1);
			stale.addVisit();
			assertThat(visits.save(stale)).as("a write of a fresh read").isTrue();
			stale.addVisit();
			assertThat(visits.save(stale)).as("a second write of the same read").isFalse();
			holdTheFirstReadsTogether(owners);
			concurrently(context.getBean(FencedVisitController.class)::addVisit);
			assertThat(owners.findById(1).getVisits()).isEqualTo(CALLERS + 1);
		});
	}

	/** The first {@link #CALLERS} reads wait for each other, so every caller reads before anyone writes. */
	private static void holdTheFirstReadsTogether(Owners owners) {
		CountDownLatch allRead = new CountDownLatch(CALLERS);
		owners.afterRead = () -> {
			if (allRead.getCount() > 0) {
				allRead.countDown();
				try {
					allRead.await(30, TimeUnit.SECONDS);
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		};
	}

	private static void concurrently(IntConsumer visit) throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(CALLERS);
		try {
			List<Future<?>> calls = new ArrayList<>();
			for (int i = 0; i < CALLERS; i++) {
				calls.add(pool.submit(() -> visit.accept(1)));
			}
			for (Future<?> call : calls) {
				call.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

}
