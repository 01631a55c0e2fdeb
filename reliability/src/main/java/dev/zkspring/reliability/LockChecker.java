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
 * fencing made it harmless: the later holder's token is higher, every write the earlier one made after
 * the later one's first accepted write was refused by the store, and the earlier one was told before
 * it left (its {@code isHeld()} was false when it left, or it got a {@code ZkLockLostEvent} while
 * inside, or it was killed): a loss reported only after the holder finished came too late to matter.
 */
final class LockChecker {

	int sections;

	int overlaps;

	int refusedWrites;

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

	private void check(Section earlier, Section later, Map<String, List<Long>> lossEvents) {
		String pair = earlier + " and " + later;
		if (later.token <= earlier.token) {
			this.violations.add("two holders inside at once without a higher token for the later one: " + pair);
			return;
		}
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
