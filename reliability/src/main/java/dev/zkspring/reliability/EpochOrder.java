package dev.zkspring.reliability;

import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import dev.zkspring.reliability.History.Entry;

/**
 * Epochs increase per leader group. In each group, by the machine's clock: a grant whose epoch another
 * instance was granted too is a violation (two leaderships with one fencing token), and so is a grant
 * whose epoch is lower than one this instance was granted before in the group, or lower than the epoch
 * of a leadership of the group that had already ended (its revocation journaled). A grant journaled after
 * another instance's grant of a higher epoch is not one by itself: a leader frozen between taking its
 * term and journaling it journals the grant late, after its successor's; it cannot also outlast the
 * successor's whole term, as no other fault runs during a freeze and a group stays with an instance
 * for {@code zk.leader.rebalance-hold} (longer than a freeze) after it took it.
 */
final class EpochOrder {

	private EpochOrder() {
	}

	/** Report each violation with its group. */
	static void check(History history, BiConsumer<String, String> violations) {
		List<Entry> changes = history.entries.stream()
			.filter((entry) -> entry.type().equals("G") || entry.type().equals("R"))
			.sorted(Comparator.comparingLong(Entry::nano))
			.toList();
		Map<String, Map<Long, Entry>> grantOfEpoch = new HashMap<>();
		Map<String, Entry> highestOwnGrant = new HashMap<>();
		Map<String, Entry> highestEnded = new HashMap<>();
		for (Entry change : changes) {
			String group = LeaderChecker.group(change);
			long epoch = LeaderChecker.epoch(change);
			if (change.type().equals("R")) {
				highestEnded.merge(group, change, (a, b) -> (LeaderChecker.epoch(a) >= LeaderChecker.epoch(b)) ? a : b);
				continue;
			}
			Entry same = grantOfEpoch.computeIfAbsent(group, (g) -> new HashMap<>()).putIfAbsent(epoch, change);
			if (same != null && same.instance() != change.instance()) {
				violations.accept(group, "epoch " + epoch + " granted to w" + same.instance() + " and to w" + change.instance());
			}
			Entry own = highestOwnGrant.get(group + "/" + change.instance());
			Entry ended = highestEnded.get(group);
			if (own != null && LeaderChecker.epoch(own) > epoch) {
				violations.accept(group, "epoch went back: w" + change.instance() + " was granted epoch " + epoch
						+ " after its own earlier grant of epoch " + LeaderChecker.epoch(own));
			}
			else if (ended != null && LeaderChecker.epoch(ended) > epoch) {
				violations.accept(group, "epoch went back: w" + change.instance() + " was granted epoch " + epoch
						+ " after the leadership of w" + ended.instance() + " with epoch " + LeaderChecker.epoch(ended)
						+ " had ended");
			}
			if (own == null || LeaderChecker.epoch(own) < epoch) {
				highestOwnGrant.put(group + "/" + change.instance(), change);
			}
		}
	}

}
