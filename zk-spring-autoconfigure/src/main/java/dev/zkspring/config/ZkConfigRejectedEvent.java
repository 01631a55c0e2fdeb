package dev.zkspring.config;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;

/**
 * A context document written to ZooKeeper while the application runs was rejected: the last good
 * version of that context stays in force. Names the znode, the reason and, where one applies, the
 * key; never a value.
 */
public class ZkConfigRejectedEvent extends ApplicationEvent {

	private final String znode;

	private final int version;

	private final String reason;

	private final @Nullable String key;

	/**
	 * Create the event.
	 * @param source the application context whose configuration was kept
	 * @param znode the rejected context node
	 * @param version the rejected data version of the node
	 * @param reason why it was rejected, naming keys and positions, never values
	 * @param key the offending key, when the reason concerns one
	 */
	public ZkConfigRejectedEvent(Object source, String znode, int version, String reason, @Nullable String key) {
		super(source);
		this.znode = znode;
		this.version = version;
		this.reason = reason;
		this.key = key;
	}

	/** The rejected context node. */
	public String getZnode() {
		return this.znode;
	}

	/** The rejected data version of the node. */
	public int getVersion() {
		return this.version;
	}

	/** Why the document was rejected. */
	public String getReason() {
		return this.reason;
	}

	/** The offending key, when the reason concerns one. */
	public @Nullable String getKey() {
		return this.key;
	}

	@Override
	public String toString() {
		return "ZkConfigRejectedEvent[" + this.znode + " v" + this.version + ": " + this.reason + "]";
	}

}
