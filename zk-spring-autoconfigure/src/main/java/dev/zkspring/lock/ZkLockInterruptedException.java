package dev.zkspring.lock;

/**
 * The caller's thread was interrupted while it waited for the lock. The thread's interrupt status is
 * set again when this is thrown, as Java's blocking methods leave it for the caller to act on; it is
 * not a ZooKeeper problem, so callers that retry on {@link ZkLockUnavailableException} do not retry it.
 */
public class ZkLockInterruptedException extends ZkLockException {

	ZkLockInterruptedException(String key, Exception cause) {
		super(key, "Interrupted while waiting for lock '" + key + "'.", cause);
	}

}
