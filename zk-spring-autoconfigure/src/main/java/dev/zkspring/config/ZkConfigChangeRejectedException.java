package dev.zkspring.config;

import org.jspecify.annotations.Nullable;

/**
 * Thrown by a {@link ZkConfigApplier} that refuses a change: the config center then keeps the
 * current configuration and publishes a {@link ZkConfigRejectedEvent} naming the key's znode. The
 * message names keys and targets, never values.
 */
public class ZkConfigChangeRejectedException extends RuntimeException {

	private final @Nullable String key;

	private final @Nullable String target;

	private final String reason;

	/**
	 * Create the exception.
	 * @param key the key whose new value (or removal) breaks the target, when known
	 * @param target the target that would break, such as {@code bean 'shop' field 'greeting'}
	 * @param reason why, naming keys and types, never values
	 * @param cause the underlying failure, if any
	 */
	public ZkConfigChangeRejectedException(@Nullable String key, @Nullable String target, String reason,
			@Nullable Throwable cause) {
		super(reason, cause);
		this.key = key;
		this.target = target;
		this.reason = reason;
	}

	/** The key whose new value (or removal) breaks the target, when known. */
	public @Nullable String getKey() {
		return this.key;
	}

	/** The target that would break. */
	public @Nullable String getTarget() {
		return this.target;
	}

	/** Why the change was refused. */
	public String getReason() {
		return this.reason;
	}

}
