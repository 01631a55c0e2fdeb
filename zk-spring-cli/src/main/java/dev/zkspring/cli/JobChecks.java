package dev.zkspring.cli;

import java.text.ParseException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;
import org.quartz.CronExpression;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.convert.DurationStyle;

import dev.zkspring.publish.MetadataFinding;

/**
 * The rules the instances apply to {@code zk.quartz.jobs.<job>.*} when a document arrives (a cron Quartz parses,
 * a positive interval of whole milliseconds, not both; for sharded jobs a positive {@code shards} and
 * {@code shard-parameters} such as {@code 0=Beijing,1=Shanghai} with indexes below it), checked before publishing:
 * an instance refuses such an entry and keeps the job's schedule, so a pull request's CI should refuse it first.
 * Which jobs exist is the application's to say: an unknown job name is left to the instances. Messages name keys,
 * never values.
 */
final class JobChecks {

	private static final ConfigurationPropertyName JOBS = ConfigurationPropertyName.of("zk.quartz.jobs");

	private JobChecks() {
	}

	/** One {@code INVALID} finding per job setting an instance would refuse, in key order. */
	static List<MetadataFinding> check(Map<String, String> document) {
		Map<String, Job> jobs = new TreeMap<>();
		new TreeMap<>(document).forEach((key, value) -> {
			ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
			if (!JOBS.isAncestorOf(name) || name.getNumberOfElements() < 5) {
				return;
			}
			String job = name.getElement(3, ConfigurationPropertyName.Form.ORIGINAL);
			String prefix = JOBS.append(name.getElement(3, ConfigurationPropertyName.Form.ORIGINAL)).toString();
			String property = name.getElement(4, ConfigurationPropertyName.Form.UNIFORM);
			Job settings = jobs.computeIfAbsent(job, (j) -> new Job(prefix));
			switch (property) {
				case "cron" -> settings.cron = new Setting(key, value);
				case "interval" -> settings.interval = new Setting(key, value);
				case "shards" -> settings.shards = new Setting(key, value);
				case "shardparameters" -> {
					if (name.getNumberOfElements() == 5) {
						settings.parameters.add(new Setting(key, value));
					}
					else {
						// the map form: zk.quartz.jobs.<job>.shard-parameters.<index>
						settings.indexed.add(new Setting(key, name.getElement(5, ConfigurationPropertyName.Form.ORIGINAL)));
					}
				}
				default -> {
				}
			}
		});
		List<MetadataFinding> findings = new ArrayList<>();
		jobs.values().forEach((job) -> job.check(findings));
		return findings;
	}

	private record Setting(String key, String value) {

	}

	/** One job's settings as the document has them. */
	private static final class Job {

		final String prefix;

		@Nullable Setting cron;

		@Nullable Setting interval;

		@Nullable Setting shards;

		final List<Setting> parameters = new ArrayList<>();

		/** The map form's entries: key, and the index its last element names. */
		final List<Setting> indexed = new ArrayList<>();

		Job(String prefix) {
			this.prefix = prefix;
		}

		void check(List<MetadataFinding> findings) {
			if (this.cron != null && this.interval != null) {
				findings.add(invalid(this.prefix, this.prefix + " sets both cron and interval: keep one"));
			}
			if (this.cron != null && !this.cron.value().isEmpty()) {
				try {
					CronExpression.validateExpression(this.cron.value());
				}
				catch (ParseException ex) {
					// Quartz's reason quotes part of the value: keep the position, not the value
					findings.add(invalid(this.cron.key(), this.cron.key() + " is not a valid Quartz cron expression ("
							+ String.valueOf(ex.getMessage()).replaceAll("'[^']*'", "'…'") + ")"));
				}
			}
			if (this.interval != null && !this.interval.value().isEmpty()) {
				String problem = intervalProblem(this.interval.value());
				if (problem != null) {
					findings.add(invalid(this.interval.key(), this.interval.key() + " " + problem));
				}
			}
			Integer shards = null;
			if (this.shards != null) {
				shards = positive(this.shards.value());
				if (shards == null) {
					findings.add(invalid(this.shards.key(), this.shards.key() + " must be a positive whole number of "
							+ "shards"));
				}
			}
			for (Setting parameters : this.parameters) {
				checkParameters(parameters, shards, findings);
			}
			for (Setting entry : this.indexed) {
				checkIndex(entry.key(), entry.value(), shards, findings);
			}
		}

		private void checkParameters(Setting parameters, @Nullable Integer shards, List<MetadataFinding> findings) {
			if (parameters.value().isBlank()) {
				return;
			}
			for (String item : parameters.value().split(",", -1)) {
				int equals = item.indexOf('=');
				if (equals < 1) {
					findings.add(invalid(parameters.key(), parameters.key() + " is not a list of INDEX=PARAMETER "
							+ "separated by commas (such as 0=a,1=b)"));
					return;
				}
				if (!checkIndex(parameters.key(), item.substring(0, equals).trim(), shards, findings)) {
					return;
				}
			}
		}

		private boolean checkIndex(String key, String index, @Nullable Integer shards, List<MetadataFinding> findings) {
			Integer number = index.equals("0") ? Integer.valueOf(0) : positive(index);
			if (number == null) {
				findings.add(invalid(key, key + " names a shard index that is not a whole number from 0"));
				return false;
			}
			if (shards != null && number >= shards) {
				findings.add(invalid(key, key + " names shard index " + number + ", but " + this.prefix
						+ ".shards is " + shards + " (indexes 0 to " + (shards - 1) + ")"));
				return false;
			}
			return true;
		}

	}

	private static @Nullable Integer positive(String text) {
		try {
			int number = Integer.parseInt(text.trim());
			return (number > 0) ? number : null;
		}
		catch (NumberFormatException ex) {
			return null;
		}
	}

	/** Why the instances would not repeat at the interval, or {@code null}. */
	private static @Nullable String intervalProblem(String text) {
		Duration interval;
		try {
			interval = DurationStyle.detectAndParse(text.trim());
		}
		catch (IllegalArgumentException ex) {
			return "is not a duration (such as 30s or PT30S)";
		}
		if (interval.isNegative() || interval.isZero()) {
			return "must be positive";
		}
		if (interval.compareTo(Duration.ofMillis(1)) < 0) {
			return "must be at least 1ms: Quartz repeats at whole milliseconds";
		}
		return null;
	}

	private static MetadataFinding invalid(String key, String message) {
		return new MetadataFinding(key, MetadataFinding.Kind.INVALID, message);
	}

}
