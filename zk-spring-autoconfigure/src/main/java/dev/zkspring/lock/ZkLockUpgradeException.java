package dev.zkspring.lock;

/**
 * A thread holding a key in {@link ZkLock.Mode#READ} asked for it exclusively. Refused, because two
 * readers upgrading at once would wait for each other forever.
 */
public class ZkLockUpgradeException extends ZkLockException {

	ZkLockUpgradeException(String key, ZkLock.Mode requested) {
		super(key, "Lock '" + key + "' is held for READ by this thread and cannot be upgraded to " + requested
				+ "; take it in WRITE mode from the start.", null);
	}

}
