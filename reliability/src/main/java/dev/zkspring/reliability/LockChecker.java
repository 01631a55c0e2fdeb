package dev.zkspring.reliability;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.zkspring.reliability.History.Entry;

/**
 * Mutual exclusion over the lock history. Two holders inside at once (by the machine's monotonic
 * clock, journaled inside the section, so a reported overlap is a real one) are allowed only when
 * fencing made it harmless: every write the earlier holder made after the later one's first accepted
 * write was refused by the store, and the earlier one was told before it left (its {@code isHeld()} was
 * false when it left, or it got a {@code ZkLockLostEvent} while inside, or it was killed): a loss
 * reported only after the holder finished came too late to matter. Earlier and later are the order of
 * the turns, which the tokens give (ZooKeeper's transaction ids): a section's first journal line is
 * written after the lock admitted it, so a process frozen in between journals its entry only on
 * resuming, after a later turn began; such pairs are counted apart. Two overlapping holders with the
 * same token are a violation.
 */
final class LockChecker {

	int sections;

	int overlaps;

	int refusedWrites;

	/** Overlaps in which the holder journaled later had the earlier turn (admitted, then frozen before its first line). */
	int enteredLateAfterFreeze;

	final List<String> violations = new ArrayList<>();

	LockChecker(History history) {
		List<Section> all = sections(history);
		this.sections = all.size();
		Map<String, List<Long>> lossEvents = new HashMap<>();
		for (Entry entry : history.of("LL")) {
			lossEvents.computeIfAbsent(entry.instance() + "/" + entry.life(), (k) -> new ArrayList<>()).add(entry.nano());
		}
		all.sort(Comparator.comparingLong((Section s) -> s.enter));
		List<Section> active = new ArrayList<>();
		for (Section later : all) {
			active.removeIf((s) -> s.exit <= later.enter);
			for (Section earlier : active) {
				this.overlaps++;
				check(earlier, later, lossEvents);
			}
			active.add(later);
		}
	}

	private void check(Section journaledFirst, Section journaledLater, Map<String, List<Long>> lossEvents) {
		if (journaledLater.token == journaledFirst.token) {
			this.violations.add("two holders inside at once with the same token: " + journaledFirst + " and " + journaledLater);
			return;
		}
		boolean inTurnOrder = journaledLater.token > journaledFirst.token;
		if (!inTurnOrder) {
			this.enteredLateAfterFreeze++;
		}
		Section earlier = inTurnOrder ? journaledFirst : journaledLater;
		Section later = inTurnOrder ? journaledLater : journaledFirst;
		String pair = earlier + " and " + later;
		long fence = later.firstAcceptedSequence();
		for (long[] write : earlier.writes) {
			if (write[0] > fence && write[1] == 1) {
				this.violations.add("the store accepted a write of a deposed holder: " + pair);
				return;
			}
		}
		boolean told = earlier.killed || !earlier.heldAtExit
				|| lossEvents.getOrDefault(earlier.instance + "/" + earlier.life, List.of())
					.stream()
					.anyMatch((nano) -> nano >= earlier.enter && nano <= earlier.exit);
		if (!told) {
			this.violations.add("a holder overtaken by another was never told it lost the lock: " + pair);
		}
	}

	private List<Section> sections(History history) {
		List<Section> done = new ArrayList<>();
		Map<String, Section> open = new HashMap<>();
		Map<String, Long> lastNano = new HashMap<>();
		for (Entry entry : history.entries) {
			String life = entry.instance() + "/" + entry.life();
			lastNano.put(life, entry.nano());
			String key = life + "/" + entry.field(0);
			switch (entry.type()) {
				case "LE" -> open.put(key, new Section(entry.instance(), entry.life(), entry.field(0),
						entry.longField(1), entry.nano()));
				case "LW" -> {
					Section section = open.get(key);
					if (section != null) {
						boolean ok = "ok".equals(entry.field(2));
						section.writes.add(new long[] { entry.longField(3), ok ? 1 : 0 });
						if (!ok) {
							this.refusedWrites++;
						}
					}
				}
				case "LX", "LF" -> {
					Section section = open.remove(key);
					if (section != null) {
						section.exit = entry.nano();
						section.heldAtExit = "LX".equals(entry.type()) && Boolean.parseBoolean(entry.field(2));
						done.add(section);
					}
				}
				default -> {
				}
			}
		}
		for (Section section : open.values()) {
			// the process died (or the campaign ended) inside the section
			section.exit = lastNano.get(section.instance + "/" + section.life) + 1;
			section.killed = true;
			done.add(section);
		}
		return done;
	}

	private static final class Section {

		final int instance;

		final int life;

		final String thread;

		final long token;

		final long enter;

		long exit;

		boolean heldAtExit;

		boolean killed;

		/** Each write: the store's sequence number and 1 when accepted. */
		final List<long[]> writes = new ArrayList<>();

		Section(int instance, int life, String thread, long token, long enter) {
			this.instance = instance;
			this.life = life;
			this.thread = thread;
			this.token = token;
			this.enter = enter;
		}

		long firstAcceptedSequence() {
			return this.writes.stream().filter((w) -> w[1] == 1).mapToLong((w) -> w[0]).min().orElse(Long.MAX_VALUE);
		}

		@Override
		public String toString() {
			return "w" + this.instance + "(life " + this.life + ", " + this.thread + ", token " + this.token + ")";
		}

	}

}
