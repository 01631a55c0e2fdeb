package dev.zkspring.publish;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * What a change does, key by key: the flat Spring keys added, removed and changed. It holds key names
 * only, never values, so it can be shown, logged and kept in history.
 * @param added keys only the new document has
 * @param removed keys only the old document has
 * @param changed keys both have, with different values
 */
public record KeyDiff(List<String> added, List<String> removed, List<String> changed) {

	public KeyDiff {
		added = List.copyOf(added);
		removed = List.copyOf(removed);
		changed = List.copyOf(changed);
	}

	/** The key-level difference from one flat document to another. */
	public static KeyDiff between(Map<String, String> before, Map<String, String> after) {
		List<String> added = new ArrayList<>();
		List<String> removed = new ArrayList<>();
		List<String> changed = new ArrayList<>();
		TreeSet<String> keys = new TreeSet<>(before.keySet());
		keys.addAll(after.keySet());
		for (String key : keys) {
			if (!before.containsKey(key)) {
				added.add(key);
			}
			else if (!after.containsKey(key)) {
				removed.add(key);
			}
			else if (!Objects.equals(before.get(key), after.get(key))) {
				changed.add(key);
			}
		}
		return new KeyDiff(added, removed, changed);
	}

	/** Whether nothing changes. */
	public boolean isEmpty() {
		return this.added.isEmpty() && this.removed.isEmpty() && this.changed.isEmpty();
	}

	/** How many keys change. */
	public int size() {
		return this.added.size() + this.removed.size() + this.changed.size();
	}

}
