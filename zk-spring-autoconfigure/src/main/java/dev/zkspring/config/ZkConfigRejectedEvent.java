package dev.zkspring.config;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;

/**
 * A context document written to ZooKeeper while the application runs was rejected, because it is
 * malformed or because it would break a bean that uses it: the last good version of that context
 * stays in force. Names the znode, the reason and, where they apply, the key and the target; never a
 * value.
 */
public class ZkConfigRejectedEvent extends ApplicationEvent {

	private final String znode;

	private final int version;

	private final String reason;

	private final @Nullable String key;

	private final @Nullable String target;

	/**
	 * Create the event.
	 * @param source the application context whose configuration was kept
	 * @param znode the rejected context node
	 * @param version the rejected data version of the node
	 * @param reason why it was rejected, naming keys and positions, never values
	 * @param key the offending key, when the reason concerns one
	 */
	public ZkConfigRejectedEvent(Object source, String znode, int version, String reason, @Nullable String key) {
		this(source, znode, version, reason, key, null);
	}

	/**
	 * Create the event for a change that was read and parsed but would break a bean that uses it.
	 * @param source the application context whose configuration was kept
	 * @param znode the context node holding the offending key
	 * @param version the rejected data version of the node
	 * @param reason why it was rejected, naming keys and types, never values
	 * @param key the offending key, when the reason concerns one
	 * @param target the bean member the change would break, such as {@code bean 'shop' field 'greeting'}
	 */
	public ZkConfigRejectedEvent(Object source, String znode, int version, String reason, @Nullable String key,
			@Nullable String target) {
		super(source);
		this.znode = znode;
		this.version = version;
		this.reason = reason;
		this.key = key;
		this.target = target;
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

	/** The bean member the change would break, when a refresh target refused it. */
	public @Nullable String getTarget() {
		return this.target;
	}

	@Override
	public String toString() {
		return "ZkConfigRejectedEvent[" + this.znode + " v" + this.version + ": " + this.reason
				+ ((this.target != null) ? ", target " + this.target : "") + "]";
	}

}
