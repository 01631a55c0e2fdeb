package dev.zkspring.leader.shard;

import java.util.Map;
import java.util.TreeMap;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The rules the instances apply to {@code zk.quartz.jobs.<job>.shards} and {@code .shard-parameters}, for the
 * operator's tool to check a document before it is published with the code the instances run
 * ({@link ShardSettings#parse}), not a copy. Reasons name keys, never values.
 */
public final class ShardEntryRules {

	private ShardEntryRules() {
	}

	/**
	 * Why an instance would refuse the shard settings in a document's properties.
	 * @param properties the document's keys and values, flattened ({@code zk.quartz.jobs.report.shards})
	 * @return by the key each reason names, the reason, starting with that key; in key order
	 */
	public static Map<String, String> refusals(Map<String, String> properties) {
		Map<String, String> refusals = new TreeMap<>();
		Map<String, ShardSettings.Entry> entries;
		try {
			entries = ShardSettings.bind(new Binder(new MapConfigurationPropertySource(properties)));
		}
		catch (BindException ex) {
			refusals.put(ex.getName().toString(), ex.getName() + " could not be bound: every job would keep its shards");
			return refusals;
		}
		entries.forEach((name, entry) -> {
			if (entry.shards() == null && entry.shardParameters() == null) {
				return;
			}
			try {
				ShardSettings.parse(ShardSettings.PREFIX + "." + name, entry);
			}
			catch (IllegalArgumentException ex) {
				String reason = String.valueOf(ex.getMessage());
				refusals.put(reason.split(" ", 2)[0], reason);
			}
		});
		return refusals;
	}

}
