package dev.zkspring.reliability;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Journals written by hand for the checkers' tests, in the workloads' line format, with the machine
 * clock given in milliseconds.
 */
final class Journals {

	private final Map<Integer, List<String>> lines = new TreeMap<>();

	/** Add {@code <nanoTime> <wall> <what>} to an instance's journal (lines of one instance in time order). */
	Journals at(int instance, long millis, String what) {
		this.lines.computeIfAbsent(instance, (i) -> new ArrayList<>(List.of((millis - 1) * 1_000_000 + " 0 START 1")))
			.add(millis * 1_000_000 + " " + millis + " " + what);
		return this;
	}

	Map<Integer, List<String>> lines() {
		return this.lines;
	}

	History history() {
		return new History(this.lines);
	}

	/**
	 * Three instances, the application's own election and the groups alpha and beta, all leading at once:
	 * w1 leads default (epoch 5) and alpha (epoch 10) until it hands alpha to w3 (epoch 30) at 1500 ms, with
	 * one alpha run in flight across that handover (and a beta run too, which no handover of beta overtook);
	 * w2 leads beta (epoch 20, granted after w1's epochs). Every group runs its job at the fire times 1000
	 * and 2000, and a {@code @LeaderOnly} call.
	 */
	static Journals cleanWithThreeGroups() {
		return new Journals().at(1, 100, "G default 5")
			.at(1, 110, "G alpha 10")
			.at(2, 300, "G beta 20")
			.at(1, 1000, "JS alpha 10 1000 alphaTick")
			.at(1, 1001, "JS default 5 1000 tick")
			.at(2, 1002, "JS beta 20 1000 betaTick")
			.at(1, 1150, "JE alpha 10 1000 alphaTick")
			.at(1, 1151, "JE default 5 1000 tick")
			.at(2, 1152, "JE beta 20 1000 betaTick")
			.at(1, 1200, "OS alpha 10")
			.at(2, 1210, "OS beta 20")
			.at(1, 1250, "OE alpha 10")
			.at(2, 1260, "OE beta 20")
			.at(1, 1270, "OS default 5")
			.at(1, 1320, "OE default 5")
			.at(1, 1400, "JS alpha 10 1400 alphaTick")
			.at(1, 1500, "R alpha 10 STEPPED_BACK")
			.at(2, 1550, "JS beta 20 1500 betaTick")
			.at(3, 1600, "G alpha 30")
			.at(1, 1650, "JE alpha 10 1400 alphaTick")
			.at(2, 1700, "JE beta 20 1500 betaTick")
			.at(3, 2000, "JS alpha 30 2000 alphaTick")
			.at(2, 2001, "JS beta 20 2000 betaTick")
			.at(1, 2002, "JS default 5 2000 tick")
			.at(3, 2150, "JE alpha 30 2000 alphaTick")
			.at(2, 2151, "JE beta 20 2000 betaTick")
			.at(1, 2152, "JE default 5 2000 tick")
			.at(3, 2200, "OS alpha 30")
			.at(3, 2250, "OE alpha 30");
	}

}
