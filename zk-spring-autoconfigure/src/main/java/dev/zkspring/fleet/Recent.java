package dev.zkspring.fleet;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A short, bounded history of what this instance did (leadership periods, lock holds), so a page can
 * draw the last few minutes of every instance from the fleet nodes alone.
 */
final class Recent {

	private final int maxEntries;

	private final long windowMillis;

	private final Deque<Period> periods = new ArrayDeque<>();

	Recent(int maxEntries, long windowMillis) {
		this.maxEntries = maxEntries;
		this.windowMillis = windowMillis;
	}

	synchronized void add(String kind, String label, long start, long end) {
		this.periods.addLast(new Period(kind, label, start, end));
		while (this.periods.size() > this.maxEntries) {
			this.periods.removeFirst();
		}
	}

	/** The periods that ended within the window before {@code now}, oldest first. */
	synchronized List<Map<String, Object>> describe(long now) {
		while (!this.periods.isEmpty() && this.periods.peekFirst().end() < now - this.windowMillis) {
			this.periods.removeFirst();
		}
		List<Map<String, Object>> described = new ArrayList<>();
		for (Period period : this.periods) {
			described.add(period.describe());
		}
		return described;
	}

	private record Period(String kind, String label, long start, long end) {

		Map<String, Object> describe() {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("kind", this.kind);
			details.put("label", this.label);
			details.put("start", this.start);
			details.put("end", this.end);
			return details;
		}

	}

}
