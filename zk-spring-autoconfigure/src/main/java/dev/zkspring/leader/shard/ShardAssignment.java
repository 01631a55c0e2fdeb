package dev.zkspring.leader.shard;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

/**
 * Which live instance owns each shard: sticky (a shard stays with a live owner), even (loads differ by
 * at most one once settled), and moving at most one shard of a live owner per computation, so a joining
 * instance takes its share one fire time at a time instead of reshuffling the fleet. Shards whose owner
 * is gone all move at once: nobody else would run them. A pure function of the previous owners and the
 * sorted live members, so any instance computing it gets the same answer.
 */
final class ShardAssignment {

	private ShardAssignment() {
	}

	/**
	 * The owners of shards 0..total-1.
	 * @param previous the previous owners by shard (any length; entries beyond total are dropped)
	 * @param live the live instances (none: every shard unowned, empty string)
	 */
	static List<String> assign(List<String> previous, int total, Collection<String> live) {
		TreeSet<String> members = new TreeSet<>(live);
		List<String> owners = new ArrayList<>(total);
		if (members.isEmpty()) {
			for (int i = 0; i < total; i++) {
				owners.add("");
			}
			return owners;
		}
		Map<String, Integer> load = new HashMap<>();
		members.forEach((member) -> load.put(member, 0));
		for (int i = 0; i < total; i++) {
			String owner = (i < previous.size()) ? previous.get(i) : "";
			if (members.contains(owner)) {
				owners.add(owner);
				load.merge(owner, 1, Integer::sum);
			}
			else {
				owners.add(null);
			}
		}
		for (int i = 0; i < total; i++) {
			if (owners.get(i) == null) {
				String least = least(members, load);
				owners.set(i, least);
				load.merge(least, 1, Integer::sum);
			}
		}
		String most = most(members, load);
		String least = least(members, load);
		if (most != null && load.get(most) - load.get(least) > 1) {
			// one move: the most loaded owner's highest shard goes to the least loaded
			for (int i = total - 1; i >= 0; i--) {
				if (owners.get(i).equals(most)) {
					owners.set(i, least);
					break;
				}
			}
		}
		return owners;
	}

	/** The first of the least loaded members, in sorted order. */
	static String least(TreeSet<String> members, Map<String, Integer> load) {
		String least = members.first();
		for (String member : members) {
			if (load.get(member) < load.get(least)) {
				least = member;
			}
		}
		return least;
	}

	private static @Nullable String most(TreeSet<String> members, Map<String, Integer> load) {
		String most = null;
		for (String member : members) {
			if (most == null || load.get(member) > load.get(most)) {
				most = member;
			}
		}
		return most;
	}

}
