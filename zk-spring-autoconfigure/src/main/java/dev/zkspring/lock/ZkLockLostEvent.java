package dev.zkspring.lock;

import org.springframework.context.ApplicationEvent;

/**
 * A lock that was held in this JVM is no longer guaranteed: the connection was SUSPENDED or the session
 * lease LAPSED (in doubt), the session was LOST, or the JVM's node was DELETED (the lock is gone). Holders
 * see {@link ZkLockContext#isHeld()} turn false before this is published; it is published on a thread
 * of the lock registry's own, never on Curator's, so a slow listener delays no lock and no other
 * component. Names the key and the lock path, never argument values.
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
		LOST,

		/** The session lease ran out (e.g. the process was frozen): the session may have expired meanwhile. */
		LAPSED,

		/** The JVM's node for the key was deleted by someone else: another JVM may hold the lock now. */
		DELETED

	}

}
