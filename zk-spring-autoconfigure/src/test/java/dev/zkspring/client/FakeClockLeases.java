package dev.zkspring.client;

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

}
