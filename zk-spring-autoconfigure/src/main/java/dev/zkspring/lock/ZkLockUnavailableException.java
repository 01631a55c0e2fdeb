package dev.zkspring.lock;

import org.jspecify.annotations.Nullable;

/**
 * ZooKeeper could not be asked (not connected, or a request failed) while taking the lock: the caller
 * cannot know who holds it, which is a different situation from a lock that is merely busy.
 */
public class ZkLockUnavailableException extends ZkLockException {

	ZkLockUnavailableException(String key, String message, @Nullable Throwable cause) {
		super(key, message, cause);
	}

}
