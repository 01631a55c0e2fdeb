package dev.zkspring.lock;

import java.time.Duration;

/** The lock was held by someone else for the whole wait time; ZooKeeper itself was reachable. */
public class ZkLockBusyException extends ZkLockException {

	private final Duration waitTime;

	ZkLockBusyException(String key, Duration waitTime) {
		super(key, "Lock '" + key + "' is busy; it did not come free within " + waitTime + ".", null);
		this.waitTime = waitTime;
	}

	/** How long the caller waited. */
	public Duration getWaitTime() {
		return this.waitTime;
	}

}
