package dev.zkspring.lock;

/** Base of every exception the lock API throws, so callers can catch them in one place. */
public abstract class ZkLockException extends RuntimeException {

	private final String key;

	ZkLockException(String key, String message, Throwable cause) {
		super(message, cause);
		this.key = key;
	}

	/** The lock key the failure concerns. */
	public String getKey() {
		return this.key;
	}

}
