package dev.zkspring.client;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import org.apache.curator.framework.CuratorFramework;

/** For tests of other packages: a {@link SessionLease} on a clock the test moves, as a frozen process sees it. */
public final class FakeClockLeases {

	private FakeClockLeases() {
	}

	/** Start a lease of the client that reads time from the given nanosecond clock. */
	public static SessionLease start(CuratorFramework client, LongSupplier nanoClock) {
		return SessionLease.start(client, nanoClock);
	}

	/**
	 * Register (before anything else listens) a listener that reports a lapse, then holds the lease's
	 * thread in its announcement until {@code thaw}: the listeners registered after it do not hear of the
	 * lapse meanwhile, as in a process that resumed before that thread ran.
	 */
	public static void holdLapseAnnouncements(SessionLease lease, CountDownLatch announced, CountDownLatch thaw) {
		lease.addListener(() -> {
			announced.countDown();
			try {
				thaw.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
	}

}
