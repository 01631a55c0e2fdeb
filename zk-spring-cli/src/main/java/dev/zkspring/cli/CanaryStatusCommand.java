package dev.zkspring.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import dev.zkspring.config.ConfigCanary;
import dev.zkspring.fleet.FleetCanary;

/** {@code config canary-status CONTEXT}: what every live instance reports about the context's canary. */
@Command(name = "canary-status", mixinStandardHelpOptions = true,
		description = { "Print the context's canary and, per live instance: id, member of the set, runs the candidate, "
				+ "the canary revision it reported, CURRENT/REFUSED/PENDING (members) and why it refused (keys, never "
				+ "values)." },
		footer = { "%nExample:%n  zk-spring config canary-status orders --app orders" })
final class CanaryStatusCommand implements Callable<Integer> {

	@ParentCommand
	ConfigCommand config;

	@Parameters(index = "0", paramLabel = "CONTEXT", description = "The context.")
	String context;

	@Mixin
	FleetOptions fleet = new FleetOptions();

	@Mixin
	ReadChecks read = new ReadChecks();

	@Override
	public Integer call() throws Exception {
		PrintWriter out = this.config.spec.commandLine().getOut();
		PrintWriter err = this.config.spec.commandLine().getErr();
		return this.config.withCanaries(this.read.checks, (canaries) -> {
			ConfigCanary canary = canaries.canary(this.context);
			if (canary == null) {
				err.println("context '" + this.context + "' runs no canary");
				if (this.read.json()) {
					json(out, null, List.of());
				}
				return Exits.DONE;
			}
			err.println("context '" + this.context + "' canary revision " + canary.revision() + " on "
					+ String.join(",", canary.instances()) + " (base node version " + canary.baseVersion() + ")");
			List<FleetCanary> statuses = canaries.status(this.fleet.fleetPath(this.context), this.context);
			if (this.read.json()) {
				json(out, canary, statuses);
				return Exits.DONE;
			}
			out.println(String.format("%-24s %-7s %-9s %-9s %-8s %s", "INSTANCE", "MEMBER", "CANDIDATE", "REVISION",
					"STATUS", "REASON"));
			for (FleetCanary status : statuses) {
				out.println(String.format("%-24s %-7s %-9s %-9s %-8s %s", status.instanceId(),
						status.member() ? "yes" : "no", status.runsCandidate() ? "yes" : "no",
						(status.revision() != null) ? status.revision() : "-",
						(status.status() != null) ? status.status() : "-",
						(status.reason() != null) ? status.reason() : "-"));
			}
			for (String id : canary.instances()) {
				if (statuses.stream().noneMatch((status) -> status.instanceId().equals(id))) {
					out.println(String.format("%-24s %-7s %-9s %-9s %-8s %s", id, "yes", "-", "-", "-",
							"not live in " + this.fleet.fleetPath(this.context)));
				}
			}
			return Exits.DONE;
		});
	}

	/** The canary and one entry per live instance, then the members not live, with stable field names. */
	private void json(PrintWriter out, @org.jspecify.annotations.Nullable ConfigCanary canary, List<FleetCanary> statuses) {
		java.util.Map<String, Object> body = new java.util.LinkedHashMap<>();
		body.put("context", this.context);
		java.util.Map<String, Object> about = null;
		if (canary != null) {
			about = new java.util.LinkedHashMap<>();
			about.put("revision", canary.revision());
			about.put("instances", canary.instances());
			about.put("baseVersion", canary.baseVersion());
		}
		body.put("canary", about);
		List<java.util.Map<String, Object>> instances = new java.util.ArrayList<>();
		for (FleetCanary status : statuses) {
			java.util.Map<String, Object> entry = new java.util.LinkedHashMap<>();
			entry.put("instance", status.instanceId());
			entry.put("member", status.member());
			entry.put("runsCandidate", status.runsCandidate());
			entry.put("revision", status.revision());
			entry.put("status", (status.status() != null) ? String.valueOf(status.status()) : null);
			entry.put("reason", status.reason());
			entry.put("live", true);
			instances.add(entry);
		}
		if (canary != null) {
			for (String id : canary.instances()) {
				if (statuses.stream().noneMatch((status) -> status.instanceId().equals(id))) {
					java.util.Map<String, Object> entry = new java.util.LinkedHashMap<>();
					entry.put("instance", id);
					entry.put("member", true);
					entry.put("live", false);
					instances.add(entry);
				}
			}
		}
		body.put("instances", instances);
		ReadOutput.printJson(out, body);
	}

}
