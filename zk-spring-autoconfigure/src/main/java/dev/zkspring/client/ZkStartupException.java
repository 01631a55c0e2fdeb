package dev.zkspring.client;

import org.jspecify.annotations.Nullable;

/**
 * Startup cannot go on because of something the user can fix: a missing or malformed property, an
 * unreachable ensemble, a port in use. Carries what went wrong and what to change, which the failure
 * analyzer shows in place of a stack trace.
 */
public class ZkStartupException extends RuntimeException {

	private final String action;

	public ZkStartupException(String description, String action) {
		this(description, action, null);
	}

	public ZkStartupException(String description, String action, @Nullable Throwable cause) {
		super(description, cause);
		this.action = action;
	}

	/** What went wrong, naming the property, znode or port involved. */
	public String getDescription() {
		return String.valueOf(getMessage());
	}

	/** What the user should change to fix it. */
	public String getAction() {
		return this.action;
	}

}
