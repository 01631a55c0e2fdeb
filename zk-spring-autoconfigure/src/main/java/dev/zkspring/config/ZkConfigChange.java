package dev.zkspring.config;

import org.jspecify.annotations.Nullable;

/**
 * One key of a {@link ZkConfigChangedEvent}: added, changed or removed, with its old and new value.
 * {@link #toString()} shows the key and the type only, because values may be secrets.
 * @param key the Spring property key, such as {@code shop.greeting} or {@code shop.items[0]}
 * @param type whether the key was added, changed or removed
 * @param oldValue the value before the change; {@code null} when the key was added
 * @param newValue the value after the change; {@code null} when the key was removed
 */
public record ZkConfigChange(String key, Type type, @Nullable Object oldValue, @Nullable Object newValue) {

	@Override
	public String toString() {
		return this.type + " " + this.key;
	}

	/** What happened to a key. */
	public enum Type {

		/** The key had no value from ZooKeeper before. */
		ADDED,

		/** The key has a different value. */
		CHANGED,

		/** The key has no value from ZooKeeper any more. */
		REMOVED

	}

}
