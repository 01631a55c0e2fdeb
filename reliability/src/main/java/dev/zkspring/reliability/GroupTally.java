package dev.zkspring.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/** What the leadership checker counted for one leader group (or the application's own election). */
final class GroupTally {

	final String group;

	/** The instances granted this group's leadership at least once. */
	final TreeSet<Integer> leaders = new TreeSet<>();

	int grants;

	/** Grants to another instance than the group's previous grant went to. */
	int handovers;

	int jobRuns;

	int leaderOnlyCalls;

	/** {@code @LeaderOnly} calls whose body found leadership already revoked (epoch 0) as it began. */
	int revokedAtStart;

	int inFlight;

	int violations;

	final List<Long> failoverNanos = new ArrayList<>();

	GroupTally(String group) {
		this.group = group;
	}

	String leadersSeen() {
		return this.leaders.isEmpty() ? "none" : String.join(", ", this.leaders.stream().map((i) -> "w" + i).toList());
	}

}
