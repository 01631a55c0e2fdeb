package dev.zkspring.reliability;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/** The campaign's results as Markdown: one table per checker, then every violation found. */
record Report(long seed, boolean quick, long seconds, Map<Fault, Integer> faultCounts, int faults, LockChecker locks,
		LeaderChecker leadership, ConfigChecker config, ShardChecker shards, int[] crashDetection, ConfigWriter writer) {

	int violations() {
		return this.locks.violations.size() + this.leadership.violations.size() + this.config.violations.size()
				+ this.shards.violations.size();
	}

	String markdown() {
		StringBuilder md = new StringBuilder();
		md.append("# Reliability campaign results\n\n")
			.append("Seed ").append(this.seed).append(this.quick ? " (quick run)" : " (full run)").append(", ")
			.append(this.seconds).append(" s, 3 ZooKeeper server processes (tick ").append(Ensemble.TICK_MILLIS)
			.append(" ms), 3 workload JVMs (session timeout ").append(Campaign.SESSION_MILLIS).append(" ms).\n")
			.append("Replay: `java -jar reliability/target/reliability.jar --seed=").append(this.seed)
			.append(this.quick ? " --quick" : "").append("`.\n\n");
		md.append("## Faults\n\n| fault | injected |\n|---|---|\n");
		for (Fault fault : Fault.values()) {
			md.append("| ").append(fault.name().toLowerCase().replace('_', ' ')).append(" | ")
				.append(this.faultCounts.getOrDefault(fault, 0)).append(" |\n");
		}
		md.append("| **total** | **").append(this.faults).append("** |\n\n");
		md.append("## Locks\n\n| critical sections | overlapping pairs (fenced) | of which entered before a freeze, journaled after | writes refused by the store | violations |\n|---|---|---|---|---|\n")
			.append("| ").append(this.locks.sections).append(" | ").append(this.locks.overlaps).append(" | ")
			.append(this.locks.enteredLateAfterFreeze).append(" | ")
			.append(this.locks.refusedWrites).append(" | ").append(this.locks.violations.size()).append(" |\n\n");
		md.append(leadership(this.leadership));
		md.append(failovers(this.leadership, this.crashDetection));
		md.append(shards(this.shards));
		md.append("## Configuration\n\n| good documents | malformed | unconvertible | applied (journaled) | refusals (events) | violations | propagation p50 / p99 / max |\n|---|---|---|---|---|---|---|\n")
			.append("| ").append(this.writer.written.size()).append(" | ").append(this.writer.malformed).append(" | ")
			.append(this.writer.refused.size()).append(" | ").append(this.config.applied).append(" | ")
			.append(this.config.refusals).append(" | ").append(this.config.violations.size()).append(" | ")
			.append(percentiles(this.config.propagationNanos)).append(" |\n\n");
		md.append(convergence(this.config.convergence, this.writer.bursts));
		List<String> all = new ArrayList<>();
		all.addAll(this.locks.violations);
		all.addAll(this.leadership.violations);
		all.addAll(this.config.violations);
		all.addAll(this.shards.violations);
		md.append("## Violations\n\n");
		if (all.isEmpty()) {
			md.append("None.\n");
		}
		all.stream().limit(50).forEach((v) -> md.append("- ").append(v).append('\n'));
		if (all.size() > 50) {
			md.append("- ... and ").append(all.size() - 50).append(" more\n");
		}
		return md.toString();
	}

	/** The leadership section: totals, then one row per group. */
	static String leadership(LeaderChecker leaders) {
		StringBuilder md = new StringBuilder();
		md.append("## Leadership\n\n| job runs | @LeaderOnly calls (revoked as they began) | grants | runs in flight at a handover | violations | failover p50 / p99 / max |\n|---|---|---|---|---|---|\n")
			.append("| ").append(leaders.total((g) -> g.jobRuns)).append(" | ").append(leaders.total((g) -> g.leaderOnlyCalls))
			.append(" (").append(leaders.total((g) -> g.revokedAtStart)).append(") | ")
			.append(leaders.total((g) -> g.grants)).append(" | ").append(leaders.total((g) -> g.inFlight)).append(" | ")
			.append(leaders.violations.size()).append(" | ").append(percentiles(leaders.failoverNanos))
			.append(" |\n\n");
		md.append("Per leader group (`default` is the application's own election; each group is checked on its own):\n\n")
			.append("| group | leaders seen | grants | handovers | job runs | @LeaderOnly calls | in flight at a handover | violations | failover p50 / p99 / max |\n")
			.append("|---|---|---|---|---|---|---|---|---|\n");
		for (GroupTally group : leaders.groups.values()) {
			md.append("| ").append(group.group).append(" | ").append(group.leadersSeen()).append(" | ").append(group.grants)
				.append(" | ").append(group.handovers).append(" | ").append(group.jobRuns).append(" | ")
				.append(group.leaderOnlyCalls).append(" | ").append(group.inFlight).append(" | ").append(group.violations)
				.append(" | ").append(percentiles(group.failoverNanos)).append(" |\n");
		}
		md.append('\n');
		return md.toString();
	}

	/**
	 * Failover by cause (issue 42): after {@code kill -9} of a leader's JVM crash detection ends the dead
	 * session at once; after a freeze, a partition or an expiry the others must wait for the session.
	 */
	static String failovers(LeaderChecker leaders, int[] crashDetection) {
		List<Long> session = new ArrayList<>(leaders.failoverNanos);
		leaders.killFailoverNanos.forEach(session::remove);
		return new StringBuilder("Failover by cause (crash detection ran in ").append(crashDetection[0]).append(" of ")
			.append(crashDetection[1]).append(" workload lives; session timeout ").append(Campaign.SESSION_MILLIS)
			.append(" ms):\n\n| fault that took the leader | p50 / p99 / max | p50 ÷ session timeout |\n|---|---|---|\n")
			.append("| `kill -9` of its JVM (crash detection) | ").append(percentiles(leaders.killFailoverNanos)).append(" | ")
			.append(ratio(leaders.killFailoverNanos)).append(" |\n")
			.append("| freeze, partition, expiry (waits for the session) | ").append(percentiles(session)).append(" | ")
			.append(ratio(session)).append(" |\n\n")
			.toString();
	}

	/** The sharded jobs (issue 40): per job, what ran and the shard checker's violations. */
	static String shards(ShardChecker shards) {
		StringBuilder md = new StringBuilder("## Sharded jobs\n\n")
			.append("| job | fire times dispatched | shard runs | re-runs after a lost owner | handovers | missed (no recovery requested) |\n")
			.append("|---|---|---|---|---|---|\n");
		shards.jobs.forEach((job, tally) -> md.append("| ").append(job).append(" | ").append(tally.dispatched).append(" | ")
			.append(tally.runs).append(" | ").append(tally.reruns).append(" | ").append(tally.handovers).append(" | ")
			.append(tally.missed).append(" |\n"));
		return md.append("\nShard violations (each (job, fire time, shard) at most once, fenced; once when recovery is requested): ")
			.append(shards.violations.size())
			.append(".\n\n")
			.toString();
	}

	private static String ratio(List<Long> nanos) {
		if (nanos.isEmpty()) {
			return "n/a";
		}
		List<Long> sorted = new ArrayList<>(nanos);
		Collections.sort(sorted);
		return String.format(java.util.Locale.ROOT, "%.2f×", sorted.get((sorted.size() - 1) / 2) / 1e6 / Campaign.SESSION_MILLIS);
	}

	/** The convergence rows: after each burst and each heal, every instance up shows the last good document. */
	static String convergence(ConvergenceChecker convergence, List<Integer> bursts) {
		return new StringBuilder("Convergence to the last good document within ").append(ConvergenceChecker.BOUND_MILLIS)
			.append(" ms of each burst's end, each write and each heal:\n\n")
			.append("| bursts (good documents each, max) | converge points | instance checks | skipped (taken away, starting) | violations | delay p50 / p99 / max |\n")
			.append("|---|---|---|---|---|---|\n| ")
			.append(bursts.size()).append(" (").append(bursts.stream().mapToInt(Integer::intValue).max().orElse(0))
			.append(") | ").append(convergence.points).append(" | ").append(convergence.checked).append(" | ")
			.append(convergence.skipped).append(" | ").append(convergence.violations.size()).append(" | ")
			.append(percentiles(convergence.delayNanos)).append(" |\n\n")
			.toString();
	}

	private static String percentiles(List<Long> nanos) {
		if (nanos.isEmpty()) {
			return "n/a";
		}
		List<Long> sorted = new ArrayList<>(nanos);
		Collections.sort(sorted);
		return millis(sorted.get((sorted.size() - 1) / 2)) + " / " + millis(sorted.get((int) Math.ceil(sorted.size() * 0.99) - 1))
				+ " / " + millis(sorted.get(sorted.size() - 1)) + " (n=" + sorted.size() + ")";
	}

	private static String millis(long nanos) {
		return (nanos / 1_000_000) + " ms";
	}

}
