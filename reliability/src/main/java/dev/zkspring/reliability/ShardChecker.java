package dev.zkspring.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.zkspring.reliability.History.Entry;

/**
 * The sharded jobs (issue 40) over their journal lines: {@code SD group epoch fireTime job total
 * requestsRecovery} (a dispatch the leader ended well: its dispatch node exists), {@code SS job fireTime
 * index total parameter recovering epoch version owner nodeRecovering self} (a shard's run began, with the
 * dispatch node as the run read it) and {@code SE job fireTime index recovering} (it ended).
 * <ul>
 * <li><b>at most once</b>: each (job, fire time, shard) starts at most one run, and at most one re-run after
 * its owner was lost ({@code isRecovering()}), only for a job that requests recovery, and only when its
 * first run cannot have ended on an owner that stayed (the first run journaled no end, or its instance was
 * taken away or lost its session between the run's start and end): a shard of a live owner re-run is a
 * shard run twice;</li>
 * <li><b>fenced</b>: a first run whose dispatch node names another owner for the shard without flagging it
 * as re-run was handed over before the claim (a handover happens only while no claim exists) — the claim
 * must have been refused;</li>
 * <li><b>settings</b>: a shard's index is below its total, and one parameter per (job, index);</li>
 * <li><b>once when recovery is requested</b>: for a job that requests recovery, every fire time the leader
 * journaled as dispatched before the campaign's settle point (every fault healed, every instance ready,
 * then {@link Campaign#SETTLE_MILLIS} for the last handovers) has, for each of its shards, a run that
 * journaled its end. Fire times dispatched later, or never dispatched (a leader lost before its dispatch
 * ended: no dispatch node, nothing to run), are not required. For a job that does not request recovery, the
 * shards of a dispatched fire time that never started are counted as missed, not as violations.</li>
 * </ul>
 */
final class ShardChecker {

	/** How long after a run's end line its end may still be on its way to ZooKeeper (the claim node's update). */
	static final long END_RECORDED_NANOS = 1_000_000_000L;

	final List<String> violations = new ArrayList<>();

	/** By job name. */
	final Map<String, Tally> jobs = new TreeMap<>();

	ShardChecker(History history, List<Outage> outages, long settledNanos) {
		Map<String, Entry> dispatches = new LinkedHashMap<>();
		Map<String, Boolean> recovers = new HashMap<>();
		for (Entry sd : history.of("SD")) {
			dispatches.putIfAbsent(sd.field(3) + "/" + cronFireTime(sd.field(2)), sd);
			recovers.put(sd.field(3), Boolean.parseBoolean(sd.field(5)));
		}
		Map<String, List<Entry>> first = new LinkedHashMap<>();
		Map<String, List<Entry>> reruns = new LinkedHashMap<>();
		Map<String, Entry> ends = new HashMap<>();
		Map<String, String> parameters = new HashMap<>();
		for (Entry entry : history.entries) {
			if (entry.type().equals("SE")) {
				ends.putIfAbsent(runKey(entry, entry.field(2), Boolean.parseBoolean(entry.field(3))), entry);
			}
			if (!entry.type().equals("SS")) {
				continue;
			}
			boolean rerun = Boolean.parseBoolean(entry.field(5));
			String shard = shardKey(entry);
			(rerun ? reruns : first).computeIfAbsent(shard, (k) -> new ArrayList<>()).add(entry);
			Tally tally = tally(entry.field(0));
			if (rerun) {
				tally.reruns++;
			}
			else {
				tally.runs++;
			}
			if (entry.longField(2) >= entry.longField(3)) {
				violation("shard " + entry.field(2) + " of job " + entry.field(0) + " ran with a total of " + entry.field(3));
			}
			String previous = parameters.putIfAbsent(entry.field(0) + "/" + entry.field(2), entry.field(4));
			if (previous != null && !previous.equals(entry.field(4))) {
				violation("shard " + entry.field(2) + " of job " + entry.field(0) + " ran with two parameters");
				parameters.put(entry.field(0) + "/" + entry.field(2), entry.field(4));
			}
			checkFence(entry, rerun);
		}
		first.forEach((shard, runs) -> {
			if (runs.size() > 1) {
				violation(describe(shard) + " ran twice: by w" + runs.get(0).instance() + " and w" + runs.get(1).instance()
						+ " (" + (runs.get(1).nano() - runs.get(0).nano()) / 1_000_000 + " ms later)");
			}
		});
		reruns.forEach((shard, runs) -> checkRerun(shard, runs, first.getOrDefault(shard, List.of()), ends, outages,
				history, recovers));
		countHandovers(first, reruns);
		dispatches.values().forEach((sd) -> {
			Tally tally = tally(sd.field(3));
			tally.dispatched++;
			if (sd.nano() > settledNanos) {
				return;
			}
			int total = Integer.parseInt(sd.field(4));
			for (int i = 0; i < total; i++) {
				String shard = sd.field(3) + "/" + cronFireTime(sd.field(2)) + "/" + i;
				if (Boolean.parseBoolean(sd.field(5))) {
					boolean ended = ends.containsKey(shard + "/false") || ends.containsKey(shard + "/true");
					if (!ended) {
						violation(describe(shard) + " (dispatched by w" + sd.instance() + ", epoch " + sd.field(1)
								+ ") requests recovery and never ran to its end"
								+ (first.containsKey(shard) ? " (its first run began on w" + first.get(shard).get(0).instance() + ")" : ""));
					}
				}
				else if (!first.containsKey(shard)) {
					tally.missed++;
				}
			}
		});
	}

	private void checkFence(Entry start, boolean rerun) {
		String owner = start.field(8);
		if (rerun || owner.isEmpty() || owner.equals("?") || owner.equals(start.field(10))
				|| Boolean.parseBoolean(start.field(9))) {
			return;
		}
		violation(describe(shardKey(start)) + " ran on w" + start.instance() + " (" + start.field(10)
				+ ") while its dispatch node (version " + start.field(7) + ") named " + owner
				+ " as its owner: the shard was handed over before that claim, which should have been refused");
	}

	private void checkRerun(String shard, List<Entry> runs, List<Entry> firsts, Map<String, Entry> ends, List<Outage> outages,
			History history, Map<String, Boolean> recovers) {
		Entry rerun = runs.get(0);
		String job = rerun.field(0);
		if (!recovers.getOrDefault(job, true)) {
			violation(describe(shard) + " was re-run on w" + rerun.instance() + " though the job does not request recovery");
		}
		if (runs.size() > 1) {
			violation(describe(shard) + " was re-run twice: by w" + runs.get(0).instance() + " and w" + runs.get(1).instance());
		}
		if (firsts.isEmpty()) {
			return; // claimed, then lost before journaling its start
		}
		Entry run = firsts.get(0);
		Entry end = ends.get(shard + "/false");
		if (end == null || end.instance() != run.instance() || end.life() != run.life()) {
			return; // its owner was lost mid-run
		}
		// the run's end reaches ZooKeeper just after its journal line: an owner lost in between is lost mid-run
		long until = end.nano() + END_RECORDED_NANOS;
		if (takenAway(run.instance(), run.nano(), until, outages) || sessionLost(history, run, until)
				|| lifeEndedBy(history, run, until)) {
			return; // a frozen or cut owner, lost to the others while it ran: the re-run is recovery's documented overlap
		}
		violation(describe(shard) + " was re-run on w" + rerun.instance() + " after its run on w" + run.instance()
				+ " had ended, on an owner never taken away nor disconnected");
	}

	private static boolean lifeEndedBy(History history, Entry run, long until) {
		return history.entries.stream()
			.anyMatch((e) -> e.instance() == run.instance() && e.life() == run.life() + 1 && e.type().equals("START")
					&& e.nano() <= until);
	}

	private static boolean takenAway(int instance, long from, long to, List<Outage> outages) {
		return outages.stream().anyMatch((o) -> o.instance() == instance && o.fromNanos() <= to && o.toNanos() >= from);
	}

	private static boolean sessionLost(History history, Entry run, long to) {
		return history.entries.stream()
			.anyMatch((e) -> e.instance() == run.instance() && e.life() == run.life() && e.type().equals("Z")
					&& e.nano() >= run.nano() && e.nano() <= to && !e.field(0).equals("CONNECTED")
					&& !e.field(0).equals("RECONNECTED"));
	}

	/** Moves of a shard between consecutive fire times: the instance that ran it (re-ran it, if any) differs. */
	private void countHandovers(Map<String, List<Entry>> first, Map<String, List<Entry>> reruns) {
		Map<String, TreeMap<Long, Integer>> ranBy = new HashMap<>();
		first.forEach((shard, runs) -> put(ranBy, runs.get(0)));
		// a re-run after a lost owner is where the shard went
		reruns.forEach((shard, runs) -> put(ranBy, runs.get(0)));
		ranBy.forEach((jobShard, byFire) -> {
			Integer previous = null;
			for (int instance : byFire.values()) {
				if (previous != null && previous != instance) {
					tally(jobShard.substring(0, jobShard.indexOf('/'))).handovers++;
				}
				previous = instance;
			}
		});
	}

	private static void put(Map<String, TreeMap<Long, Integer>> ranBy, Entry run) {
		ranBy.computeIfAbsent(run.field(0) + "/" + run.field(2), (k) -> new TreeMap<>())
			.put(cronFireTime(run.field(1)), run.instance());
	}

	private static String shardKey(Entry entry) {
		return entry.field(0) + "/" + cronFireTime(entry.field(1)) + "/" + entry.field(2);
	}

	private static String runKey(Entry entry, String index, boolean rerun) {
		return entry.field(0) + "/" + cronFireTime(entry.field(1)) + "/" + index + "/" + rerun;
	}

	/**
	 * The cron fire time a dispatched fire time stands for: the workload's triggers fire on whole seconds, and
	 * a dispatch recovered from a lost leader may be named after the instant Quartz fired (a few ms later),
	 * so two names of one fire time both running a shard are a shard run twice.
	 */
	static long cronFireTime(String fireTime) {
		long millis = Long.parseLong(fireTime);
		return millis - Math.floorMod(millis, 1000L);
	}

	private static String describe(String shard) {
		String[] parts = shard.split("/");
		return "shard " + parts[2] + " of fire time " + parts[1] + " of job " + parts[0];
	}

	private void violation(String violation) {
		this.violations.add("shards: " + violation);
	}

	private Tally tally(String job) {
		return this.jobs.computeIfAbsent(job, (k) -> new Tally());
	}

	int total(java.util.function.ToIntFunction<Tally> count) {
		return this.jobs.values().stream().mapToInt(count).sum();
	}

	/** What the checker counted for one sharded job. */
	static final class Tally {

		int dispatched;

		/** First runs of a shard. */
		int runs;

		/** Re-runs after the owner was lost mid-run. */
		int reruns;

		/** A shard ran on another instance than at the job's previous fire time. */
		int handovers;

		/** Shards of a dispatched fire time that never started (a job without recovery, its owner lost). */
		int missed;

	}

}
