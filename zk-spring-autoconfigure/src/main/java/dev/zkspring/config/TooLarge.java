package dev.zkspring.config;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The nodes a locator found too large to read, with the stat they were reported from, so that a change
 * of another context is still one multi-read: such a node is planned from its stat and not read. Only
 * its own change (the watch's event, {@link #changed}) can make it readable again, so an event for it
 * forgets it, and a read that was under way when the event came does not remember it again.
 */
final class TooLarge {

	private final Map<String, Stat> stats = new ConcurrentHashMap<>();

	/** Events per node, so a read can tell whether one came while it read. */
	private final Map<String, Long> changes = new ConcurrentHashMap<>();

	/** A node's change was reported: read it the careful way next time. */
	void changed(String znode) {
		this.changes.merge(znode, 1L, Long::sum);
		this.stats.remove(znode);
	}

	Map<String, Long> changes(List<String> znodes) {
		Map<String, Long> counts = new HashMap<>();
		znodes.forEach((znode) -> counts.put(znode, this.changes.getOrDefault(znode, 0L)));
		return counts;
	}

	/** Remember a node read too large, unless it changed since the read began. */
	void remember(String znode, Stat stat, @Nullable Long changesAtStart) {
		if (changesAtStart != null && changesAtStart.equals(this.changes.getOrDefault(znode, 0L))) {
			this.stats.put(znode, stat);
		}
		else {
			this.stats.remove(znode);
		}
	}

	void forget(String znode) {
		this.stats.remove(znode);
	}

	@Nullable Stat stat(String znode) {
		return this.stats.get(znode);
	}

}
