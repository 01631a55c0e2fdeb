package dev.zkspring.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.zkspring.reliability.History.Entry;

/**
 * Convergence to the last write: after each {@link ConvergePoint} (a burst ended, a write during a fault, a
 * fault healed), every instance that was up and ready at that point must show that version within
 * {@link #BOUND_MILLIS}, and before the node changes again: a later write that brings a behind instance up
 * to date would otherwise hide that it missed the last one. Coalescing a burst may skip versions in
 * between, never the last one: an instance that stays one version behind is what a lost change looks like
 * from outside.
 * <p>
 * An instance the campaign took away ({@link Outage}) at the point is skipped there; so is one taken away
 * during the bound before it had converged (the point of that fault's heal checks it again), and one whose
 * process life had not reported READY yet (a JVM starting up loads the node as it is). The delay is from
 * the point to the instance's first applied version at or above the point's (zero when it had it before).
 */
final class ConvergenceChecker {

	/**
	 * How long after a point an instance may take to show its version: a change reaches a connected instance
	 * in tens of milliseconds (propagation p99 43 ms in the full run); after a heal the client first has to
	 * reconnect — the ZooKeeper client waits up to 1 s between rounds of servers and gives each server a
	 * third of the 3 s session timeout to answer — then, after an expiry, open a new session and read again:
	 * about 2-3 s on a loaded 2-core machine. 5 s covers that with room, and is still far below "never",
	 * which is what a lost last change looks like.
	 */
	static final long BOUND_MILLIS = 5_000;

	/** Instance checks done (an instance at a point). */
	int checked;

	/** Instance checks skipped: taken away at the point or during the bound, or not ready yet. */
	int skipped;

	final List<String> violations = new ArrayList<>();

	final List<Long> delayNanos = new ArrayList<>();

	final int points;

	private final Map<Integer, List<Entry>> lines = new HashMap<>();

	private final List<Outage> outages;

	private final long[] writes;

	/**
	 * @param writeNanos the time of every write to the node, good or bad, in order: the node holds a
	 * point's version until the next one
	 */
	ConvergenceChecker(History history, List<Integer> instances, List<ConvergePoint> points, List<Outage> outages,
			List<Long> writeNanos) {
		this.points = points.size();
		this.outages = outages;
		this.writes = writeNanos.stream().mapToLong(Long::longValue).sorted().toArray();
		long bound = TimeUnit.MILLISECONDS.toNanos(BOUND_MILLIS);
		// lives and applied versions only: the full run journals hundreds of thousands of lock lines
		for (Entry entry : history.entries) {
			if (entry.type().equals("START") || entry.type().equals("READY") || entry.type().equals("C")) {
				this.lines.computeIfAbsent(entry.instance(), (i) -> new ArrayList<>()).add(entry);
			}
		}
		for (ConvergePoint point : points) {
			for (int instance : instances) {
				check(this.lines.getOrDefault(instance, List.of()), instance, point, bound, outages);
			}
		}
	}

	/** Whether the campaign had taken the instance away at that moment (a killed one until its next READY). */
	boolean away(int instance, long nanos) {
		List<Entry> own = this.lines.getOrDefault(instance, List.of());
		return this.outages.stream()
			.anyMatch((o) -> o.instance() == instance && o.fromNanos() <= nanos
					&& nanos < (o.restarted() ? nextReady(own, o.fromNanos()) : o.toNanos()));
	}

	private void check(List<Entry> lines, int instance, ConvergePoint point, long bound, List<Outage> outages) {
		long t = point.nanos();
		// the node holds the version until the next write: a later version that rescues an instance which
		// missed this one must not hide the miss
		long deadline = Math.min(t + bound, nextWrite(t));
		long cutoff = deadline;
		for (Outage outage : outages) {
			if (outage.instance() != instance) {
				continue;
			}
			long to = outage.restarted() ? nextReady(lines, outage.fromNanos()) : outage.toNanos();
			if (outage.fromNanos() <= t && t < to) {
				this.skipped++;
				return;
			}
			if (outage.fromNanos() > t && outage.fromNanos() < cutoff) {
				cutoff = outage.fromNanos();
			}
		}
		Entry start = null;
		boolean ready = false;
		for (Entry entry : lines) {
			if (entry.nano() > t) {
				break;
			}
			if (entry.type().equals("START")) {
				start = entry;
				ready = false;
			}
			else if (entry.type().equals("READY")) {
				ready = true;
			}
		}
		if (start == null || !ready) {
			this.skipped++;
			return;
		}
		Entry seen = null;
		Entry shown = null;
		for (Entry entry : lines) {
			if (entry.life() != start.life() || !entry.type().equals("C")) {
				continue;
			}
			if (entry.nano() <= cutoff) {
				shown = entry;
			}
			if (Integer.parseInt(entry.field(0)) >= point.version()) {
				seen = entry;
				break;
			}
		}
		if (seen != null && seen.nano() <= cutoff) {
			this.checked++;
			this.delayNanos.add(Math.max(0, seen.nano() - t));
			return;
		}
		if (cutoff < deadline) {
			this.skipped++;
			return;
		}
		this.checked++;
		String later = (seen != null)
				? "it showed " + seen.field(0) + " after " + (seen.nano() - t) / 1_000_000 + " ms"
				: "it never showed it in that process life";
		String when = (deadline < t + bound)
				? " when the node changed again " + (deadline - t) / 1_000_000 + " ms after it got version "
				: " " + BOUND_MILLIS + " ms after the node got version ";
		this.violations.add("w" + instance + " did not converge after " + point.after() + ": still on version "
				+ ((shown != null) ? shown.field(0) : "none") + when + point.version() + " (" + later + ")");
	}

	/** The first write after that moment, or never. */
	private long nextWrite(long nanos) {
		for (long write : this.writes) {
			if (write > nanos) {
				return write;
			}
		}
		return Long.MAX_VALUE;
	}

	/** When a killed instance's next life reported READY (the end of its outage), or never. */
	private static long nextReady(List<Entry> lines, long killedNanos) {
		for (Entry entry : lines) {
			if (entry.type().equals("READY") && entry.nano() > killedNanos) {
				return entry.nano();
			}
		}
		return Long.MAX_VALUE;
	}

}
