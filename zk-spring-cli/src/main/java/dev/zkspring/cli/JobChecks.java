package dev.zkspring.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.zkspring.leader.jobs.JobEntryRules;
import dev.zkspring.leader.shard.ShardEntryRules;
import dev.zkspring.publish.MetadataFinding;

/**
 * The rules the instances apply to {@code zk.quartz.jobs.<job>.*} when a document arrives (a cron Quartz parses, a
 * positive interval of whole milliseconds, not both; for sharded jobs {@code shards} from 1 to 1000 and
 * {@code shard-parameters} such as {@code 0=Beijing,1=Shanghai} with indexes below it), checked before publishing:
 * an instance refuses such an entry and keeps the job's schedule, so a pull request's CI should refuse it first.
 * The rules are the instances' own code (their internal packages, which this tool ships at the same version), so
 * the two cannot drift apart. Which jobs exist is the application's to say: an unknown job name is left to the
 * instances. Messages name keys, never values.
 */
final class JobChecks {

	private JobChecks() {
	}

	/** One {@code INVALID} finding per job setting an instance would refuse, in key order. */
	static List<MetadataFinding> check(Map<String, String> document) {
		Map<String, String> refusals = new TreeMap<>(JobEntryRules.refusals(document));
		ShardEntryRules.refusals(document).forEach((key, reason) -> refusals.merge(key, reason, (a, b) -> a + "; " + b));
		List<MetadataFinding> findings = new ArrayList<>();
		refusals.forEach((key, reason) -> findings.add(new MetadataFinding(key, MetadataFinding.Kind.INVALID, reason)));
		return findings;
	}

}
