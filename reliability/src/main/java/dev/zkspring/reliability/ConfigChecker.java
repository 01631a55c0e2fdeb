package dev.zkspring.reliability;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.zkspring.reliability.History.Entry;

/**
 * Configuration over the applied-version history: no instance ever exposes a refused document or half
 * of one (the version and its copy always agree), versions apply in order within a process life, and
 * every live instance ends on the last document written, and converges to the last good document after
 * each burst and each heal ({@link ConvergenceChecker}). Propagation: from a write to the first time an
 * instance shows that version, for instances up at the write (one the campaign had taken away catches up
 * at its heal, which the convergence delay measures).
 */
final class ConfigChecker {

	int applied;

	int refusals;

	final List<String> violations = new ArrayList<>();

	final List<Long> propagationNanos = new ArrayList<>();

	final ConvergenceChecker convergence;

	ConfigChecker(History history, ConfigWriter writer, List<Workload> workloads, List<ConvergePoint> convergePoints,
			List<Outage> outages) {
		Map<String, Integer> lastByLife = new HashMap<>();
		Map<Integer, Entry> lastByInstance = new HashMap<>();
		Map<String, Long> firstSeen = new HashMap<>();
		this.refusals = history.of("CR").size();
		for (Entry entry : history.of("C")) {
			this.applied++;
			int version = Integer.parseInt(entry.field(0));
			int copy = Integer.parseInt(entry.field(1));
			if (version != copy) {
				this.violations.add("w" + entry.instance() + " applied a document in part: version " + version + ", copy " + copy);
			}
			if (writer.refused.contains(version) || writer.refused.contains(copy)) {
				this.violations.add("w" + entry.instance() + " exposed refused document " + version);
			}
			String life = entry.instance() + "/" + entry.life();
			Integer previous = lastByLife.put(life, version);
			if (previous != null && version < previous) {
				this.violations.add("w" + entry.instance() + " went back from version " + previous + " to " + version);
			}
			lastByInstance.put(entry.instance(), entry);
			firstSeen.putIfAbsent(entry.instance() + "/" + version, entry.nano());
		}
		int last = writer.lastGood();
		for (Workload workload : workloads) {
			Entry entry = lastByInstance.get(workload.instance);
			int version = (entry != null) ? Integer.parseInt(entry.field(0)) : -1;
			if (version != last) {
				this.violations.add("w" + workload.instance + " ended on version " + version + ", not the last written " + last);
			}
		}
		this.convergence = new ConvergenceChecker(history, workloads.stream().map((w) -> w.instance).toList(),
				convergePoints, outages, writer.writeNanos);
		this.violations.addAll(this.convergence.violations);
		for (long[] write : writer.written) {
			for (Workload workload : workloads) {
				Long seen = firstSeen.get(workload.instance + "/" + write[0]);
				if (seen != null && seen > write[1] && !this.convergence.away(workload.instance, write[1])) {
					this.propagationNanos.add(seen - write[1]);
				}
			}
		}
	}

}
