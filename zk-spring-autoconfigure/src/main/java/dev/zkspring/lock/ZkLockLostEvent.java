package dev.zkspring.lock;

import org.springframework.context.ApplicationEvent;

/**
 * A lock that was held in this JVM is no longer guaranteed: the connection was SUSPENDED (in doubt) or
 * the session was LOST (the lock is gone). Names the key and the lock path, never argument values.
 */
public class ZkLockLostEvent extends ApplicationEvent {

	private final String key;

	private final String path;

	private final Reason reason;

	ZkLockLostEvent(Object source, String key, String path, Reason reason) {
		super(source);
		this.key = key;
		this.path = path;
		this.reason = reason;
	}

	/** The lock key. */
	public String getKey() {
		return this.key;
	}

	/** The key's znode under {@code zk.lock.root}. */
	public String getPath() {
		return this.path;
	}

	/** Whether the lock is in doubt or gone. */
	public Reason getReason() {
		return this.reason;
	}

	@Override
	public String toString() {
		return "ZkLockLostEvent[" + this.path + ", " + this.reason + "]";
	}

	/** Why the lock is no longer guaranteed. */
	public enum Reason {

		/** The connection is suspended: another JVM may get the lock if the session expires. */
		SUSPENDED,

		/** The session expired: the lock node is gone and another JVM may hold the lock now. */
		LOST

	}

}
