package dev.zkspring.config;

import org.jspecify.annotations.Nullable;

/** A context document that cannot be used; the reason never quotes a value, only keys and positions. */
final class DocumentRejectedException extends Exception {

	private final @Nullable String key;

	DocumentRejectedException(String reason) {
		this(reason, null);
	}

	DocumentRejectedException(String reason, @Nullable String key) {
		super(reason, null, false, false);
		this.key = key;
	}

	String reason() {
		return String.valueOf(getMessage());
	}

	@Nullable String key() {
		return this.key;
	}

}
