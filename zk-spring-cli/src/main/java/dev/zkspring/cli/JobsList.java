package dev.zkspring.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.apache.curator.framework.CuratorFramework;
import org.quartz.JobKey;

import picocli.CommandLine.Command;

import dev.zkspring.jobs.JobRequester;

/**
 * {@code zk-spring jobs list}: every job any live instance's gated scheduler has (from the fleet nodes), with its
 * leader group, its election's leader and, for a sharded job, its shard count, plus each job the tree still keeps
 * runs or an operator's pause of (a job of an instance that stopped, or of an instance older than the fleet node's
 * {@code jobs} field).
 */
@Command(name = "list", mixinStandardHelpOptions = true,
		description = { "Every job of the application: each job any live instance has (from the fleet nodes, also one "
				+ "that never ran) and each job ZooKeeper keeps runs or an operator's pause of, with its leader group, "
				+ "the leader of its election, its shard count when sharded, its operator's pause and its last run." },
		footerHeading = "%nExit status:%n", footer = { JobsCommand.HELP,
				"%nExample:%n  zk-spring jobs list --app orders --output json" })
final class JobsList extends JobsCommand.Base {

	@Override
	int run(CuratorFramework client, JobRequester requester, PrintWriter out) throws Exception {
		String latch = this.selection.latchPath();
		FleetJobCatalog catalog = FleetJobCatalog.read(client, this.selection.fleetRoot, this.selection.app, latch);
		TreeSet<JobKey> keys = new TreeSet<>(catalog.jobs().keySet());
		keys.addAll(requester.knownJobs());
		List<Map<String, Object>> jobs = new ArrayList<>();
		for (JobKey job : keys) {
			FleetJobCatalog.Job listed = catalog.job(job);
			String leaderGroup = (listed != null) ? listed.leaderGroup() : null;
			String election = catalog.electionOf(leaderGroup);
			Map<String, Object> entry = new LinkedHashMap<>();
			entry.put("group", job.getGroup());
			entry.put("name", job.getName());
			entry.put("leaderGroup", leaderGroup);
			entry.put("election", election);
			entry.put("leader", catalog.leaderOf(election));
			entry.put("shards", (listed != null) ? listed.shards() : null);
			entry.put("live", listed != null);
			entry.put("pausedBy", requester.pausedBy(job));
			List<Map<String, Object>> runs = requester.history(job);
			entry.put("lastRun", runs.isEmpty() ? null : runs.get(0));
			jobs.add(entry);
		}
		if (this.output.json()) {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("election", latch);
			body.put("leader", catalog.leaderOf(latch));
			body.put("jobs", jobs);
			ReadOutput.printJson(out, body);
			return Exits.DONE;
		}
		out.println("election " + latch + ", leader " + ReadOutput.orDash(catalog.leaderOf(latch)));
		String format = "%-12s %-24s %-14s %-16s %-6s %-16s %-24s %s";
		out.println(String.format(format, "GROUP", "NAME", "LEADER GROUP", "LEADER", "SHARDS", "PAUSED BY", "LAST RUN",
				"OUTCOME"));
		for (Map<String, Object> job : jobs) {
			Map<?, ?> last = (Map<?, ?>) job.get("lastRun");
			out.println(String.format(format, job.get("group"), job.get("name"), ReadOutput.orDash(job.get("leaderGroup")),
					ReadOutput.orDash(job.get("leader")), ReadOutput.orDash(job.get("shards")),
					ReadOutput.orDash(job.get("pausedBy")), (last != null) ? last.get("start") : "-",
					(last != null) ? last.get("outcome") : "-"));
		}
		return Exits.DONE;
	}

}
