package dev.zkspring.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import dev.zkspring.fleet.FleetInstances;

/** {@code zk-spring leaders}: per election (the application's and each leader group's), who leads and who takes part. */
@Command(name = "leaders", mixinStandardHelpOptions = true,
		description = { "Per election and leader group (its latch znode): the leader, its epoch, since when it leads, "
				+ "and every live participant, read from the instances' fleet nodes." },
		footerHeading = "%nExit status:%n",
		footer = { ReadExits.HELP, "%nExample:%n  ZK_CONNECT=zk1:2181 zk-spring leaders --output json" })
final class LeadersCommand implements Callable<Integer> {

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
		List<FleetInstances.Instance> instances = this.selection.read(this.cli);
		List<Map<String, Object>> elections = elections(instances);
		PrintWriter out = this.spec.commandLine().getOut();
		if (this.output.json()) {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("elections", elections);
			ReadOutput.printJson(out, body);
			return Exits.DONE;
		}
		String format = "%-12s %-28s %-20s %-6s %-24s %s";
		out.println(String.format(format, "APP", "GROUP", "LEADER", "EPOCH", "SINCE", "PARTICIPANTS"));
		for (Map<String, Object> election : elections) {
			out.println(String.format(format, election.get("application"), election.get("group"),
					ReadOutput.orDash(election.get("leader")), ReadOutput.orDash(election.get("epoch")),
					ReadOutput.orDash(election.get("since")), String.join(",", participants(election))));
		}
		return Exits.DONE;
	}

	@SuppressWarnings("unchecked")
	private static List<String> participants(Map<String, Object> election) {
		return (List<String>) election.get("participants");
	}

	/** One entry per application and latch znode, with the documented field names. */
	static List<Map<String, Object>> elections(List<FleetInstances.Instance> instances) {
		Map<String, Map<String, Object>> byGroup = new TreeMap<>();
		for (FleetInstances.Instance instance : instances) {
			if (!(instance.node().get("leadership") instanceof List<?> groups)) {
				continue;
			}
			for (Object item : groups) {
				Map<?, ?> group = (Map<?, ?>) item;
				String latch = String.valueOf(group.get("group"));
				Map<String, Object> election = byGroup.computeIfAbsent(instance.application() + " " + latch, (k) -> {
					Map<String, Object> created = new LinkedHashMap<>();
					created.put("application", instance.application());
					created.put("group", latch);
					created.put("leader", null);
					created.put("epoch", null);
					created.put("since", null);
					created.put("participants", new ArrayList<String>());
					return created;
				});
				participants(election).add(instance.id());
				long epoch = (group.get("epoch") instanceof Number number) ? number.longValue() : 0;
				boolean newer = !(election.get("epoch") instanceof Long known) || epoch > known;
				// two instances may both still say they lead for a moment: the higher epoch is the real one
				if (Boolean.TRUE.equals(group.get("leader")) && newer) {
					election.put("leader", instance.id());
					election.put("epoch", epoch);
					election.put("since", ReadOutput.instant(group.get("since")));
				}
			}
		}
		return new ArrayList<>(byGroup.values());
	}

}
