package dev.zkspring.reliability;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Who leads each leader group now, as the live journals say: per instance, its latest grant or
 * revocation of the group in its current process life; when two instances both claim a group (a
 * deposed leader that has not yet heard), the one with the higher epoch.
 */
final class Leaders {

	private Leaders() {
	}

	/**
	 * The current leaders.
	 * @param journals each instance's journal lines
	 * @return instance by group name, for the groups some instance leads
	 */
	static Map<String, Integer> current(Map<Integer, List<String>> journals) {
		Map<String, Integer> leaders = new TreeMap<>();
		Map<String, Long> epochs = new HashMap<>();
		journals.forEach((instance, lines) -> {
			Map<String, Boolean> decided = new HashMap<>();
			for (int i = lines.size() - 1; i >= 0; i--) {
				String[] parts = lines.get(i).split(" ");
				if (parts.length < 3) {
					continue;
				}
				if (parts[2].equals("START")) {
					break;
				}
				boolean grant = parts[2].equals("G");
				if ((!grant && !parts[2].equals("R")) || parts.length < 5 || decided.putIfAbsent(parts[3], grant) != null
						|| !grant) {
					continue;
				}
				long epoch;
				try {
					epoch = Long.parseLong(parts[4]);
				}
				catch (NumberFormatException ex) {
					continue; // a line cut by kill -9
				}
				if (epoch > epochs.getOrDefault(parts[3], -1L)) {
					epochs.put(parts[3], epoch);
					leaders.put(parts[3], instance);
				}
			}
		});
		return leaders;
	}

}
