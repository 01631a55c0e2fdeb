package dev.zkspring.reliability;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The workload journals parsed: one {@link Entry} per line, tagged with its instance and process life
 * (a restarted JVM starts a new life), in journal order.
 */
final class History {

	final List<Entry> entries = new ArrayList<>();

	/** The last monotonic time seen in each instance's each life, for sections a kill cut short. */
	History(List<Workload> workloads) {
		this(journals(workloads));
	}

	private static java.util.Map<Integer, List<String>> journals(List<Workload> workloads) {
		java.util.Map<Integer, List<String>> journals = new java.util.TreeMap<>();
		workloads.forEach((workload) -> journals.put(workload.instance, workload.journal()));
		return journals;
	}

	/** From each instance's journal lines (to check a campaign's work directory again). */
	History(java.util.Map<Integer, List<String>> journals) {
		for (var journal : journals.entrySet()) {
			int life = 0;
			for (String line : journal.getValue()) {
				String[] parts = line.trim().split(" ");
				if (parts.length < 3) {
					continue; // a line cut by kill -9
				}
				try {
					long nano = Long.parseLong(parts[0]);
					if ("START".equals(parts[2])) {
						life++;
					}
					this.entries.add(new Entry(journal.getKey(), life, nano, parts[2],
							Arrays.copyOfRange(parts, 3, parts.length)));
				}
				catch (NumberFormatException ex) {
					// a line cut by kill -9
				}
			}
		}
	}

	List<Entry> of(String type) {
		return this.entries.stream().filter((entry) -> entry.type.equals(type)).toList();
	}

	/** One journal line. */
	record Entry(int instance, int life, long nano, String type, String[] fields) {

		long longField(int index) {
			return Long.parseLong(this.fields[index]);
		}

		String field(int index) {
			return (index < this.fields.length) ? this.fields[index] : "";
		}

	}

}
