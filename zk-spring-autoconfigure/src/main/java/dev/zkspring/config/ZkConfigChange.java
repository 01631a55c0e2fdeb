package dev.zkspring.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

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

	/** The keys added, changed or removed between two effective maps of the config center, sorted by key. */
	static List<ZkConfigChange> between(Map<String, @Nullable Object> before, Map<String, @Nullable Object> after) {
		List<ZkConfigChange> changes = new ArrayList<>();
		Set<String> keys = new HashSet<>(before.keySet());
		keys.addAll(after.keySet());
		keys.stream().sorted().forEach((key) -> {
			boolean was = before.containsKey(key);
			boolean is = after.containsKey(key);
			if (!was) {
				changes.add(new ZkConfigChange(key, ZkConfigChange.Type.ADDED, null, after.get(key)));
			}
			else if (!is) {
				changes.add(new ZkConfigChange(key, ZkConfigChange.Type.REMOVED, before.get(key), null));
			}
			else if (!Objects.equals(before.get(key), after.get(key))) {
				changes.add(new ZkConfigChange(key, ZkConfigChange.Type.CHANGED, before.get(key), after.get(key)));
			}
		});
		return changes;
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
