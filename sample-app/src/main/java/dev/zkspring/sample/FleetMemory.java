package dev.zkspring.sample;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.springframework.stereotype.Component;

/**
 * What this instance last saw of every fleet node, so that the timeline keeps the lane of an instance
 * that stopped (or lost its session), greyed, until it was last seen longer ago than the timeline shows,
 * instead of dropping it the moment its node goes. The memory is this instance's own.
 */
@Component
class FleetMemory {

	private final Map<String, Map<String, Object>> lastSeen = new ConcurrentHashMap<>();

	private final Map<String, Long> seenAt = new ConcurrentHashMap<>();

	/**
	 * @param live the fleet nodes read now
	 * @param now the time of the page
	 * @return the live nodes, then those of instances gone since, each with {@code gone} = when last seen
	 */
	List<Map<String, Object>> withDeparted(List<Map<String, Object>> live, long now) {
		Set<String> ids = live.stream().map((node) -> String.valueOf(node.get("id"))).collect(Collectors.toSet());
		for (Map<String, Object> node : live) {
			if (!node.containsKey("unreadable") && !Boolean.TRUE.equals(node.get("stale"))) {
				String id = String.valueOf(node.get("id"));
				this.lastSeen.put(id, node);
				this.seenAt.put(id, now);
			}
		}
		List<Map<String, Object>> all = new ArrayList<>(live);
		for (String id : List.copyOf(this.lastSeen.keySet())) {
			long seen = this.seenAt.getOrDefault(id, 0L);
			if (ids.contains(id)) {
				continue;
			}
			if (seen < now - FleetTimeline.WINDOW_MILLIS) {
				this.lastSeen.remove(id);
				this.seenAt.remove(id);
				continue;
			}
			Map<String, Object> gone = new LinkedHashMap<>(this.lastSeen.get(id));
			gone.put("gone", seen);
			all.add(gone);
		}
		return all;
	}

}
