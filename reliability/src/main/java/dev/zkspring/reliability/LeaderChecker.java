package dev.zkspring.reliability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import dev.zkspring.reliability.History.Entry;

/**
 * Leadership over the job and {@code @LeaderOnly} history, per leader group (the application's own
 * election is the group {@code default}): each group has an election of its own, and different groups
 * may run at the same time. Journal lines carry the group first: {@code G group epoch},
 * {@code R group epoch reason}, {@code JS|JE group epoch fireTime job}, {@code OS|OE group epoch}.
 * <p>
 * In a group, a run (or call) started by an instance with epoch e at time t is new work by a deposed
 * leader when another instance had been granted a higher epoch of that group at or before t — a
 * violation; one that was already running when that happened is "in flight" (reported apart: no timeout
 * can stop it, fencing with the epoch does). Each cron fire time of a group's job may start at most once
 * across all instances. A run under an epoch granted in another group was gated by the wrong election.
 * Epochs (ZooKeeper transaction ids, so unique across groups too) increase per group: see
 * {@link EpochOrder}. Failover: from a fault that took a group's leader away to the group's next grant
 * elsewhere.
 */
final class LeaderChecker {

	/** By group name, in name order. */
	final Map<String, GroupTally> groups = new TreeMap<>();

	final List<String> violations = new ArrayList<>();

	final List<Long> failoverNanos = new ArrayList<>();

	/** Failovers after kill -9 of a leader's JVM alone: crash detection's (issue 42), beside the session timeout. */
	final List<Long> killFailoverNanos = new ArrayList<>();

	LeaderChecker(History history, List<Campaign.Injected> faults) {
		Map<String, List<Entry>> grants = history.of("G")
			.stream()
			.sorted(Comparator.comparingLong(Entry::nano))
			.collect(Collectors.groupingBy(LeaderChecker::group, TreeMap::new, Collectors.toList()));
		Map<Long, String> groupOfEpoch = new HashMap<>();
		grants.forEach((group, list) -> {
			GroupTally tally = tally(group);
			tally.grants = list.size();
			Entry previous = null;
			for (Entry grant : list) {
				groupOfEpoch.putIfAbsent(epoch(grant), group);
				tally.leaders.add(grant.instance());
				if (previous != null && previous.instance() != grant.instance()) {
					tally.handovers++;
				}
				previous = grant;
			}
		});
		EpochOrder.check(history, (group, violation) -> violation(group, violation));
		Map<String, Entry> fireTimes = new HashMap<>();
		for (Entry start : history.entries) {
			boolean job = start.type().equals("JS");
			if (job || start.type().equals("OS")) {
				checkStart(start, job, grants.getOrDefault(group(start), List.of()), groupOfEpoch, fireTimes);
			}
		}
		countInFlight(history, grants);
		measureFailovers(faults, grants);
	}

	private void checkStart(Entry start, boolean job, List<Entry> groupGrants, Map<Long, String> groupOfEpoch,
			Map<String, Entry> fireTimes) {
		String group = group(start);
		GroupTally tally = tally(group);
		if (job) {
			tally.jobRuns++;
			Entry previous = fireTimes.putIfAbsent(group + "/" + start.field(3) + "/" + start.field(2), start);
			if (previous != null) {
				violation(group, "fire time " + start.field(2) + " of job " + start.field(3) + " ran twice: by w"
						+ previous.instance() + " (epoch " + previous.field(1) + ") and w" + start.instance() + " (epoch "
						+ start.field(1) + ")");
			}
		}
		else {
			tally.leaderOnlyCalls++;
		}
		long epoch = epoch(start);
		if (epoch <= 0 && !job) {
			// the gate admitted the call, then leadership was revoked before its body read the epoch
			tally.revokedAtStart++;
			return;
		}
		if (epoch <= 0) {
			violation(group, "job run without leadership on w" + start.instance());
			return;
		}
		String grantedIn = groupOfEpoch.get(epoch);
		if (grantedIn != null && !grantedIn.equals(group)) {
			violation(group, (job ? "job run" : "@LeaderOnly call") + " on w" + start.instance() + " under epoch " + epoch
					+ ", which was granted in group " + grantedIn);
		}
		for (Entry grant : groupGrants) {
			if (grant.instance() != start.instance() && epoch(grant) > epoch && grant.nano() <= start.nano()) {
				violation(group, (job ? "job run" : "@LeaderOnly call") + " started by w" + start.instance()
						+ " with epoch " + epoch + " after w" + grant.instance() + " was granted epoch " + epoch(grant)
						+ " (" + (start.nano() - grant.nano()) / 1_000_000 + " ms later)");
				return;
			}
		}
	}

	private void countInFlight(History history, Map<String, List<Entry>> grants) {
		Map<String, Entry> running = new HashMap<>();
		for (Entry entry : history.entries) {
			boolean start = entry.type().equals("JS") || entry.type().equals("OS");
			if (!start && !entry.type().equals("JE") && !entry.type().equals("OE")) {
				continue;
			}
			// a JVM runs one execution of a job at a time, and one call of a group's @LeaderOnly task
			String key = entry.instance() + "/" + entry.life() + "/" + entry.type().charAt(0) + "/" + group(entry) + "/"
					+ entry.field(3);
			if (start) {
				running.put(key, entry);
				continue;
			}
			Entry begun = running.remove(key);
			if (begun == null) {
				continue;
			}
			long epoch = epoch(begun);
			boolean overtaken = grants.getOrDefault(group(begun), List.of())
				.stream()
				.anyMatch((g) -> g.instance() != begun.instance() && epoch(g) > epoch && g.nano() > begun.nano()
						&& g.nano() < entry.nano());
			if (overtaken) {
				tally(group(begun)).inFlight++;
			}
		}
	}

	private void measureFailovers(List<Campaign.Injected> faults, Map<String, List<Entry>> grants) {
		for (int i = 0; i < faults.size(); i++) {
			Campaign.Injected fault = faults.get(i);
			// only a handover before the next fault is this fault's failover
			long next = (i + 1 < faults.size()) ? faults.get(i + 1).startNanos() : Long.MAX_VALUE;
			for (String group : fault.groupsLed()) {
				grants.getOrDefault(group, List.of())
					.stream()
					.filter((g) -> g.instance() != fault.instance() && g.nano() > fault.startNanos() && g.nano() < next)
					.findFirst()
					.ifPresent((g) -> {
						this.failoverNanos.add(g.nano() - fault.startNanos());
						tally(group).failoverNanos.add(g.nano() - fault.startNanos());
						if (fault.fault() == Fault.KILL_WORKLOAD) {
							this.killFailoverNanos.add(g.nano() - fault.startNanos());
						}
					});
			}
		}
	}

	private void violation(String group, String violation) {
		tally(group).violations++;
		this.violations.add("group " + group + ": " + violation);
	}

	private GroupTally tally(String group) {
		return this.groups.computeIfAbsent(group, GroupTally::new);
	}

	int total(Function<GroupTally, Integer> count) {
		return this.groups.values().stream().mapToInt(count::apply).sum();
	}

	static String group(Entry entry) {
		return entry.field(0);
	}

	static long epoch(Entry entry) {
		return entry.longField(1);
	}

}
