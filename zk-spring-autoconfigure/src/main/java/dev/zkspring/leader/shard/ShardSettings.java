package dev.zkspring.leader.shard;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * The shard settings of each job ({@code zk.quartz.jobs.<job>.shards} and {@code .shard-parameters}),
 * bound from the Environment, so any configuration source (a document in ZooKeeper included) sets them.
 * A bad entry is refused by key with the reason, logged once, and the job keeps the settings it had.
 * Values are never logged: only keys and what is wrong.
 */
final class ShardSettings {

	static final String PREFIX = "zk.quartz.jobs";

	/** Most shards a job may have: each fire time's dispatch node names every shard's owner. */
	static final int MAX_SHARDS = 1000;

	private static final Log logger = LogFactory.getLog(ShardSettings.class);

	private final Environment environment;

	/** Per job name as configured: the settings in force (absent: not sharded). */
	private final Map<String, Shards> inForce = new ConcurrentHashMap<>();

	/** Per configuration key: why its value was refused. */
	private final Map<String, String> refusals = new ConcurrentHashMap<>();

	ShardSettings(Environment environment) {
		this.environment = environment;
	}

	/** One job's settings in force: how many shards, and the parameter of each shard that has one. */
	record Shards(int total, Map<Integer, String> parameters) {

		String parameter(int index) {
			return this.parameters.getOrDefault(index, "");
		}

	}

	/** One job's entry as bound: raw strings, validated here so each refusal names its key. */
	record Entry(@Nullable String shards, @Nullable String shardParameters) {
	}

	/** Bind again and apply each valid entry; refuse the others by key, keeping what they had. */
	synchronized void refresh() {
		Map<String, Entry> bound;
		try {
			bound = bind(Binder.get(this.environment));
		}
		catch (BindException ex) {
			logger.warn("Refused the change to " + PREFIX + " for sharded jobs: " + ex.getName()
					+ " could not be bound; every job keeps its shards");
			return;
		}
		Map<String, String> refused = new LinkedHashMap<>();
		bound.forEach((name, entry) -> {
			if (entry.shards() == null && entry.shardParameters() == null) {
				this.inForce.remove(name);
				return;
			}
			String key = PREFIX + "." + name;
			try {
				this.inForce.put(name, parse(key, entry));
			}
			catch (IllegalArgumentException ex) {
				refused.put(key, ex.getMessage());
			}
		});
		this.inForce.keySet().retainAll(bound.keySet());
		refused.forEach((key, reason) -> {
			if (!reason.equals(this.refusals.get(key))) {
				logger.warn("Refused " + reason + "; the job keeps its shards");
			}
		});
		this.refusals.keySet().retainAll(refused.keySet());
		this.refusals.putAll(refused);
	}

	/** Whether some job is sharded (its settings in force). */
	boolean any() {
		return !this.inForce.isEmpty();
	}

	/** The settings in force for a job name (exact, else ignoring case), or {@code null} when not sharded. */
	@Nullable Shards of(String jobName) {
		Shards exact = this.inForce.get(jobName);
		if (exact != null) {
			return exact;
		}
		return this.inForce.entrySet().stream().filter((e) -> e.getKey().equalsIgnoreCase(jobName))
			.map(Map.Entry::getValue).findFirst().orElse(null);
	}

	/** Why a job's shard settings were refused, or {@code null}. */
	@Nullable String refusal(String jobName) {
		return this.refusals.entrySet().stream()
			.filter((e) -> e.getKey().equalsIgnoreCase(PREFIX + "." + jobName))
			.map(Map.Entry::getValue).findFirst().orElse(null);
	}

	/**
	 * Every job's entry under {@link #PREFIX}; {@code shard-parameters} given as a map (YAML's
	 * {@code shard-parameters: {0: Beijing}}, or {@code shard-parameters.0=Beijing}) is read as the text form
	 * {@code 0=Beijing}, so neither form is ever dropped in silence.
	 * @throws BindException when an entry cannot be bound
	 */
	static Map<String, Entry> bind(Binder binder) {
		Map<String, Entry> bound = binder.bind(PREFIX, Bindable.mapOf(String.class, Entry.class)).orElse(Map.of());
		Map<String, String> flat = binder.bind(PREFIX, Bindable.mapOf(String.class, String.class)).orElse(Map.of());
		Map<String, Entry> entries = new LinkedHashMap<>();
		bound.forEach((name, entry) -> {
			String fromMap = (entry.shardParameters() == null) ? mapForm(name, flat) : null;
			entries.put(name, (fromMap != null) ? new Entry(entry.shards(), fromMap) : entry);
		});
		return entries;
	}

	/** The map form of a job's {@code shard-parameters} as {@code index=parameter,...}, or {@code null}. */
	private static @Nullable String mapForm(String name, Map<String, String> flat) {
		Map<String, String> items = new TreeMap<>();
		flat.forEach((key, value) -> {
			String rest = null;
			if (key.regionMatches(true, 0, name + ".", 0, name.length() + 1)) {
				rest = key.substring(name.length() + 1);
			}
			else if (key.regionMatches(true, 0, "[" + name + "].", 0, name.length() + 3)) {
				rest = key.substring(name.length() + 3);
			}
			if (rest == null) {
				return;
			}
			String canonical = rest.toLowerCase(java.util.Locale.ROOT).replace("-", "").replace("_", "");
			if (canonical.startsWith("shardparameters.") || canonical.startsWith("shardparameters[")) {
				String index = canonical.substring("shardparameters".length()).replace(".", "").replace("[", "")
					.replace("]", "");
				items.put(index, index + "=" + value);
			}
		});
		return items.isEmpty() ? null : String.join(",", items.values());
	}

	/**
	 * Validate one entry.
	 * @throws IllegalArgumentException whose message starts with the refused key
	 */
	static Shards parse(String key, Entry entry) {
		if (entry.shards() == null) {
			throw new IllegalArgumentException(key + ".shard-parameters needs " + key + ".shards");
		}
		int total;
		try {
			total = Integer.parseInt(entry.shards().trim());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException(key + ".shards is not a whole number");
		}
		if (total < 1 || total > MAX_SHARDS) {
			throw new IllegalArgumentException(key + ".shards must be from 1 to " + MAX_SHARDS);
		}
		Map<Integer, String> parameters = new TreeMap<>();
		String text = entry.shardParameters();
		if (text != null && !text.isBlank()) {
			int position = 0;
			for (String item : text.split(",", -1)) {
				position++;
				int equals = item.indexOf('=');
				if (equals < 0) {
					throw new IllegalArgumentException(key + ".shard-parameters entry " + position
							+ " is not index=parameter (e.g. 0=Beijing,1=Shanghai)");
				}
				int index;
				try {
					index = Integer.parseInt(item.substring(0, equals).trim());
				}
				catch (NumberFormatException ex) {
					throw new IllegalArgumentException(key + ".shard-parameters entry " + position
							+ " does not start with a shard index");
				}
				if (index < 0 || index >= total) {
					throw new IllegalArgumentException(key + ".shard-parameters entry " + position + " names a shard index outside 0 to "
							+ key + ".shards - 1");
				}
				if (parameters.put(index, item.substring(equals + 1).trim()) != null) {
					throw new IllegalArgumentException(key + ".shard-parameters names one shard index twice");
				}
			}
		}
		return new Shards(total, Map.copyOf(parameters));
	}

}
