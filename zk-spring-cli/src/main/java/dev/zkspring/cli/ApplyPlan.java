package dev.zkspring.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import dev.zkspring.publish.KeyDiff;
import dev.zkspring.publish.Publication;

/**
 * What {@code config apply} will do, read in one pass before anything is written: per context of the directory
 * (and, with {@code --prune}, per context only ZooKeeper has) its action, the node version it was read at (each
 * write is a compare-and-set against it), its key-level diff and any canary running on it. Printed as a table or
 * as JSON with the field names docs/operator-cli.md documents.
 */
final class ApplyPlan {

	/** What happens to one context. */
	enum Action {

		create, change, unchanged, delete

	}

	/**
	 * One context's step.
	 * @param context the context's name
	 * @param action what happens to it
	 * @param diff the keys it changes, against the document read
	 * @param document the bytes to publish; {@code null} for a deletion
	 * @param read what the plan read (its version is the compare-and-set's)
	 * @param canary the revision of the canary running on the context, or {@code null}
	 */
	record Step(String context, Action action, KeyDiff diff, byte @Nullable [] document, Publication read,
			@Nullable Long canary) {

		int version() {
			return this.read.version();
		}

		boolean writes() {
			return this.action != Action.unchanged;
		}

	}

	final List<Step> steps = new ArrayList<>();

	/** The steps that write, in the order they are written: creates and changes by name, then deletions. */
	List<Step> writes() {
		List<Step> writes = new ArrayList<>();
		this.steps.stream().filter((step) -> step.writes() && step.action() != Action.delete).forEach(writes::add);
		this.steps.stream().filter((step) -> step.action() == Action.delete).forEach(writes::add);
		return writes;
	}

	long count(Action action) {
		return this.steps.stream().filter((step) -> step.action() == action).count();
	}

	void printTable(PrintWriter out, boolean showValues) {
		for (Step step : this.steps) {
			out.println(String.format("%-9s %s%s%s", step.action(), step.context(),
					(step.version() >= 0) ? " (node version " + step.version() + ")" : "",
					(step.canary() != null) ? " [canary revision " + step.canary() + " running]" : ""));
			if (step.action() != Action.unchanged) {
				java.io.StringWriter lines = new java.io.StringWriter();
				Reports.diff(new PrintWriter(lines, true), step.read(), showValues && step.action() != Action.delete);
				lines.toString().lines().forEach((line) -> out.println("    " + line));
			}
		}
		out.println(summary());
	}

	String summary() {
		return count(Action.create) + " to create, " + count(Action.change) + " to change, " + count(Action.unchanged)
				+ " unchanged, " + count(Action.delete) + " to delete";
	}

	void printJson(PrintWriter out, boolean dryRun) {
		List<Map<String, Object>> contexts = new ArrayList<>();
		for (Step step : this.steps) {
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("context", step.context());
			entry.put("action", step.action().name());
			entry.put("version", (step.version() >= 0) ? step.version() : null);
			entry.put("added", step.diff().added());
			entry.put("removed", step.diff().removed());
			entry.put("changed", step.diff().changed());
			entry.put("canary", step.canary());
			contexts.add(entry);
		}
		Map<String, Object> counts = new LinkedHashMap<>();
		for (Action action : Action.values()) {
			counts.put(action.name(), count(action));
		}
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("dryRun", dryRun);
		body.put("contexts", contexts);
		body.put("counts", counts);
		ReadOutput.printJson(out, body);
	}

}
