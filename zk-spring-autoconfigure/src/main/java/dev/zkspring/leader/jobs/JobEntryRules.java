package dev.zkspring.leader.jobs;

import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The rules the instances apply to the schedule entries of {@code zk.quartz.jobs.<job>.*} (a cron Quartz parses, a
 * positive interval of whole milliseconds, not both), for the operator's tool to check a document before it is
 * published with the very code the instances run ({@link JobSchedules}), not a copy. Which jobs exist is the
 * application's to say, so the rules that need the jobs are left to the instances. Reasons name keys, never values.
 */
public final class JobEntryRules {

	private JobEntryRules() {
	}

	/**
	 * Why an instance would refuse the schedule entries in a document's properties.
	 * @param properties the document's keys and values, flattened ({@code zk.quartz.jobs.report.cron})
	 * @return by the key each reason names (an entry's, such as {@code zk.quartz.jobs.report}, or one setting's),
	 * the reason, starting with that key; in key order
	 */
	public static Map<String, String> refusals(Map<String, String> properties) {
		Map<String, String> refusals = new TreeMap<>();
		Map<String, JobSchedules.Entry> entries;
		try {
			entries = JobSchedules.bind(new Binder(new MapConfigurationPropertySource(properties)));
		}
		catch (IllegalArgumentException ex) {
			// as an instance: the whole change to zk.quartz.jobs is refused, naming the property
			String reason = String.valueOf(ex.getMessage());
			refusals.put(reason.split(" ", 2)[0], reason);
			return refusals;
		}
		entries.forEach((name, entry) -> {
			String reason = JobSchedules.entryProblem(JobSchedules.PREFIX + "." + name, entry);
			if (reason != null) {
				refusals.put(reason.split(" ", 2)[0], reason);
			}
		});
		return refusals;
	}

}
