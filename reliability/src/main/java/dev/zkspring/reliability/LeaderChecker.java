package dev.zkspring.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.zkspring.reliability.History.Entry;

/**
 * Leadership over the job and {@code @LeaderOnly} history. A run (or call) started by an instance with
 * epoch e at time t is new work by a deposed leader when another instance had been granted a higher
 * epoch at or before t — a violation; one that was already running when that happened is "in flight"
 * (reported apart: no timeout can stop it, fencing with the epoch does). Each cron fire time may start
 * at most once across all instances. Failover: from a fault that took the leader away to the next grant
 * elsewhere.
 */
final class LeaderChecker {

	int jobRuns;

	int leaderOnlyCalls;

	int inFlight;

	/** {@code @LeaderOnly} calls whose body found leadership already revoked (epoch 0) as it began. */
	int revokedAtStart;

	int grants;

	final List<String> violations = new ArrayList<>();

	final List<Long> failoverNanos = new ArrayList<>();

	LeaderChecker(History history, List<Campaign.Injected> faults) {
		List<Entry> grantList = history.of("G");
		this.grants = grantList.size();
		Map<Long, Entry> fireTimes = new HashMap<>();
		for (Entry start : history.entries) {
			boolean job = start.type().equals("JS");
			if (!job && !start.type().equals("OS")) {
				continue;
			}
			if (job) {
				this.jobRuns++;
				Entry previous = fireTimes.putIfAbsent(start.longField(1), start);
				if (previous != null) {
					this.violations.add("fire time " + start.field(1) + " ran twice: by w" + previous.instance()
							+ " (epoch " + previous.field(0) + ") and w" + start.instance() + " (epoch " + start.field(0) + ")");
				}
			}
			else {
				this.leaderOnlyCalls++;
			}
			long epoch = start.longField(0);
			if (epoch <= 0 && !job) {
				// the gate admitted the call, then leadership was revoked before its body read the epoch
				this.revokedAtStart++;
				continue;
			}
			if (epoch <= 0) {
				this.violations.add("job run without leadership on w" + start.instance());
				continue;
			}
			for (Entry grant : grantList) {
				if (grant.instance() != start.instance() && grant.longField(0) > epoch && grant.nano() <= start.nano()) {
					this.violations.add((job ? "job run" : "@LeaderOnly call") + " started by w" + start.instance()
							+ " with epoch " + epoch + " after w" + grant.instance() + " was granted epoch "
							+ grant.field(0) + " (" + (start.nano() - grant.nano()) / 1_000_000 + " ms later)");
					break;
				}
			}
		}
		countInFlight(history, grantList);
		for (int i = 0; i < faults.size(); i++) {
			Campaign.Injected fault = faults.get(i);
			if (fault.leaderInstance() < 0) {
				continue;
			}
			// only a handover before the next fault is this fault's failover
			long next = (i + 1 < faults.size()) ? faults.get(i + 1).startNanos() : Long.MAX_VALUE;
			grantList.stream()
				.filter((g) -> g.instance() != fault.leaderInstance() && g.nano() > fault.startNanos() && g.nano() < next)
				.findFirst()
				.ifPresent((g) -> this.failoverNanos.add(g.nano() - fault.startNanos()));
		}
	}

	private void countInFlight(History history, List<Entry> grantList) {
		Map<String, Entry> running = new HashMap<>();
		for (Entry entry : history.entries) {
			String key = entry.instance() + "/" + entry.life() + "/" + entry.type().charAt(0);
			if (entry.type().equals("JS") || entry.type().equals("OS")) {
				running.put(key, entry);
			}
			else if (entry.type().equals("JE") || entry.type().equals("OE")) {
				Entry start = running.remove(key);
				if (start == null) {
					continue;
				}
				long epoch = start.longField(0);
				boolean overtaken = grantList.stream()
					.anyMatch((g) -> g.instance() != start.instance() && g.longField(0) > epoch
							&& g.nano() > start.nano() && g.nano() < entry.nano());
				if (overtaken) {
					this.inFlight++;
				}
			}
		}
	}

}
