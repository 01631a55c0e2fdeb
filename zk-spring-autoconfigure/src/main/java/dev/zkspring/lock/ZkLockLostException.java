package dev.zkspring.lock;

import org.jspecify.annotations.Nullable;

/**
 * The lock was held and is gone or in doubt (connection suspended, session lost, session lease lapsed,
 * or its node deleted): another JVM may hold it now. Retrying may be right; the work done under the
 * lost hold may have overlapped another holder's, which is what fencing tokens are for.
 */
public class ZkLockLostException extends ZkLockException {

	ZkLockLostException(String key, String message, @Nullable Throwable cause) {
		super(key, message, cause);
	}

}
