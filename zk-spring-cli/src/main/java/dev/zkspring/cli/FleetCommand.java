package dev.zkspring.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import dev.zkspring.fleet.FleetInstances;

/** {@code zk-spring fleet}: one row per live instance, from the fleet nodes in ZooKeeper (no HTTP to any instance). */
@Command(name = "fleet", mixinStandardHelpOptions = true,
		description = { "One row per live instance, read from the fleet nodes: id, host, each context's status "
				+ "(CURRENT/REFUSED/PENDING with the applied and latest node version and the published revision), "
				+ "canary membership, the groups it leads, the shards of sharded jobs it owns, its crash detector's state and the keys it holds." },
		footerHeading = "%nExit status:%n",
		footer = { ReadExits.HELP, "%nExample:%n  ZK_CONNECT=zk1:2181 zk-spring fleet --app orders --output json" })
final class FleetCommand implements Callable<Integer> {

	@ParentCommand
	ZkSpringCli cli;

	@Spec
	CommandSpec spec;

	@Mixin
	FleetSelection selection = new FleetSelection();

	@Mixin
	ReadOutput output = new ReadOutput();

	@Override
	public Integer call() throws Exception {
		List<Map<String, Object>> rows = new ArrayList<>();
		try (CuratorFramework client = this.cli.connection.connect(this.cli.env)) {
			List<FleetInstances.Instance> instances = this.selection.read(client);
			Map<String, List<Map<String, Object>>> shards = ShardOwners.read(client, instances);
			for (FleetInstances.Instance instance : instances) {
				Map<String, Object> row = row(instance);
				if (!row.containsKey("unreadable")) {
					row.put("shards", shards.getOrDefault(ShardOwners.key(instance), List.of()));
				}
				rows.add(row);
			}
		}
		PrintWriter out = this.spec.commandLine().getOut();
		if (this.output.json()) {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("instances", rows);
			ReadOutput.printJson(out, body);
			return Exits.DONE;
		}
		String format = "%-12s %-20s %-20s %-10s %-12s %-16s %-16s %s";
		out.println(String.format(format, "APP", "ID", "HOST", "LEADS", "CANARY", "SHARDS", "CRASH-DETECTION", "CONTEXTS"));
		for (Map<String, Object> row : rows) {
			if (row.containsKey("unreadable")) {
				out.println(String.format(format, row.get("application"), row.get("id"), "-", "-", "-", "-", "-",
						"unreadable: " + row.get("unreadable")));
				continue;
			}
			out.println(String.format(format, row.get("application"), row.get("id"), ReadOutput.orDash(row.get("host")),
					list(row.get("leads")), list(row.get("canary")), shards(row.get("shards")),
					crash(row.get("crashDetection")), contexts(row.get("contexts"))));
		}
		if (rows.isEmpty()) {
			this.spec.commandLine().getErr().println("no live instance under " + this.selection.where() + " (is zk.fleet.enabled on, and --fleet-root right?)");
		}
		return Exits.DONE;
	}

	/** One instance with the documented field names. */
	static Map<String, Object> row(FleetInstances.Instance instance) {
		Map<String, Object> node = instance.node();
		Map<String, Object> row = new LinkedHashMap<>();
		row.put("application", instance.application());
		row.put("id", instance.id());
		if (node.containsKey("unreadable")) {
			row.put("unreadable", node.get("unreadable"));
			return row;
		}
		row.put("host", node.get("host"));
		List<Map<String, Object>> contexts = new ArrayList<>();
		List<String> canary = new ArrayList<>();
		if (node.get("config") instanceof List<?> config) {
			for (Object item : config) {
				Map<?, ?> context = (Map<?, ?>) item;
				Map<String, Object> described = new LinkedHashMap<>();
				described.put("znode", context.get("znode"));
				described.put("status", context.get("status"));
				described.put("appliedVersion", context.get("appliedVersion"));
				described.put("latestVersion", context.get("latestVersion"));
				described.put("revision", context.get("revision"));
				described.put("reason", context.get("reason"));
				if (context.get("canary") instanceof Map<?, ?> running) {
					Map<String, Object> inCanary = new LinkedHashMap<>();
					inCanary.put("revision", running.get("revision"));
					inCanary.put("member", running.get("member"));
					inCanary.put("runsCandidate", running.get("runsCandidate"));
					inCanary.put("status", running.get("status"));
					inCanary.put("reason", running.get("reason"));
					described.put("canary", inCanary);
					if (Boolean.TRUE.equals(running.get("member"))) {
						canary.add(String.valueOf(context.get("znode")));
					}
				}
				contexts.add(described);
			}
		}
		row.put("contexts", contexts);
		row.put("canary", canary);
		List<String> leads = new ArrayList<>();
		if (node.get("leadership") instanceof List<?> groups) {
			for (Object item : groups) {
				Map<?, ?> group = (Map<?, ?>) item;
				if (Boolean.TRUE.equals(group.get("leader"))) {
					leads.add(String.valueOf(group.get("group")));
				}
			}
		}
		row.put("leads", leads);
		List<Map<String, Object>> locks = new ArrayList<>();
		if (node.get("locks") instanceof List<?> held) {
			for (Object item : held) {
				Map<?, ?> lock = (Map<?, ?>) item;
				Map<String, Object> described = new LinkedHashMap<>();
				described.put("key", lock.get("key"));
				described.put("mode", lock.get("mode"));
				described.put("since", ReadOutput.instant(lock.get("since")));
				described.put("token", lock.get("token"));
				locks.add(described);
			}
		}
		row.put("locks", locks);
		row.put("crashDetection", crashDetection(node.get("crashDetection")));
		row.put("updated", ReadOutput.instant(node.get("updated")));
		return row;
	}

	/** The crash detector's state as the instance published it; {@code null} when it runs without one. */
	private static @Nullable Map<String, Object> crashDetection(@Nullable Object published) {
		if (!(published instanceof Map<?, ?> crash)) {
			return null;
		}
		Map<String, Object> described = new LinkedHashMap<>();
		described.put("state", crash.get("state"));
		described.put("address", crash.get("address"));
		described.put("inbound", crash.get("inbound"));
		described.put("watching", (crash.get("watching") instanceof List<?> watching) ? watching : List.of());
		described.put("deathsDetected", crash.get("deathsDetected"));
		described.put("sessionsEnded", crash.get("sessionsEnded"));
		return described;
	}

	/** {@code LISTENING w1 d0}: the state, how many peers it watches, how many deaths it detected. */
	private static String crash(@Nullable Object crashDetection) {
		if (!(crashDetection instanceof Map<?, ?> crash)) {
			return "-";
		}
		return crash.get("state") + " w" + ((List<?>) crash.get("watching")).size() + " d" + crash.get("deathsDetected");
	}

	private static String list(@Nullable Object values) {
		return (values instanceof List<?> list && !list.isEmpty()) ? String.join(",", list.stream().map(String::valueOf).toList())
				: "-";
	}

	/** Each sharded job with the indexes owned, such as {@code DEFAULT.report:0,2}. */
	private static String shards(@Nullable Object shards) {
		List<String> parts = new ArrayList<>();
		if (shards instanceof List<?> list) {
			for (Object item : list) {
				Map<?, ?> job = (Map<?, ?>) item;
				parts.add(job.get("job") + ":" + list(job.get("shards")));
			}
		}
		return parts.isEmpty() ? "-" : String.join(" ", parts);
	}

	private static String contexts(@Nullable Object contexts) {
		List<String> parts = new ArrayList<>();
		if (contexts instanceof List<?> list) {
			for (Object item : list) {
				Map<?, ?> context = (Map<?, ?>) item;
				String part = context.get("znode") + "@" + context.get("appliedVersion") + " " + context.get("status");
				if (!"CURRENT".equals(context.get("status"))) {
					part += " (latest " + context.get("latestVersion") + ")";
				}
				if (context.get("revision") != null) {
					part += " rev " + context.get("revision");
				}
				parts.add(part);
			}
		}
		return parts.isEmpty() ? "-" : String.join("; ", parts);
	}

}
