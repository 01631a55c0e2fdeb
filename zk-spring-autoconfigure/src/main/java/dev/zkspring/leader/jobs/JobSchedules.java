package dev.zkspring.leader.jobs;

import java.text.ParseException;
import java.time.Duration;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.quartz.CronExpression;
import org.quartz.CronScheduleBuilder;
import org.quartz.CronTrigger;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Schedules from the configuration ({@code zk.quartz.jobs.<job>.cron|interval}): each entry replaces
 * the schedule of the one trigger of the job with that Quartz name, keeping the trigger's key (so the
 * gate's fire-time record goes on) and starting after the trigger's last fire time (so no fire time
 * runs twice); removing the entry restores the trigger the job had at startup. Applied on every
 * instance, leader or not, so a handover lands on the same schedule. An invalid entry is refused with
 * its key and the reason, and that job keeps its schedule.
 */
public final class JobSchedules {

	static final String PREFIX = "zk.quartz.jobs";

	private static final Log logger = LogFactory.getLog(JobSchedules.class);

	private final Environment environment;

	/** Per job: the trigger it had at startup (empty when none), restored when its entry goes. */
	private final Map<JobKey, Optional<Trigger>> originals = new ConcurrentHashMap<>();

	/** Per job: the entry now in force ({@code null} value: the startup trigger). */
	private final Map<JobKey, Entry> applied = new ConcurrentHashMap<>();

	/** Per configuration key: why its entry was refused, for the endpoint. */
	private final Map<String, String> refusals = new ConcurrentHashMap<>();

	JobSchedules(Environment environment) {
		this.environment = environment;
	}

	/** One job's entry, as bound from the Environment. */
	record Entry(@Nullable String cron, @Nullable Duration interval, @Nullable Boolean paused) {

		static final Entry NONE = new Entry(null, null, null);

		boolean schedules() {
			return this.cron != null || this.interval != null;
		}

		boolean isPaused() {
			return Boolean.TRUE.equals(this.paused);
		}

	}

	/** Note each job's startup trigger; call once per scheduler before it first starts. */
	void remember(Scheduler scheduler, List<JobKey> jobs) throws SchedulerException {
		for (JobKey job : jobs) {
			List<? extends Trigger> triggers = scheduler.getTriggersOfJob(job);
			this.originals.put(job, (triggers.size() == 1) ? Optional.of(triggers.get(0)) : Optional.empty());
		}
	}

	/**
	 * The entries now in the Environment, by job name.
	 * @throws IllegalArgumentException naming the property when a value cannot be converted
	 */
	Map<String, Entry> bind() {
		return bind(Binder.get(this.environment));
	}

	/**
	 * The entries a binder has, by job name ({@link JobEntryRules} binds a document's keys so).
	 * @throws IllegalArgumentException naming the property when a value cannot be converted
	 */
	static Map<String, Entry> bind(Binder binder) {
		try {
			return new LinkedHashMap<>(binder.bind(PREFIX, Bindable.mapOf(String.class, Entry.class)).orElse(Map.of()));
		}
		catch (BindException ex) {
			String cause = (ex.getCause() != null) ? ex.getCause().getClass().getSimpleName() : "invalid value";
			throw new IllegalArgumentException(ex.getName() + " could not be bound (" + cause + ")");
		}
	}

	/** Why the entry of a job name was refused, or {@code null}. */
	@Nullable String refusal(String jobName) {
		return this.refusals.get(PREFIX + "." + jobName);
	}

	/** Forget the refusals of entries the configuration no longer has. */
	void retainRefusals(java.util.Set<String> names) {
		this.refusals.keySet().removeIf((key) -> !names.contains(key.substring(PREFIX.length() + 1)));
	}

	/** The entry a job name has in the given entries, matching names exactly, else ignoring case. */
	static Entry entryOf(Map<String, Entry> entries, String jobName) {
		Entry exact = entries.get(jobName);
		if (exact != null) {
			return exact;
		}
		return entries.entrySet().stream().filter((e) -> e.getKey().equalsIgnoreCase(jobName)).map(Map.Entry::getValue)
			.findFirst().orElse(Entry.NONE);
	}

	/** Check one entry; the reason it cannot be applied, or {@code null}. */
	@Nullable String validate(String name, Entry entry, List<JobKey> matching) {
		String key = PREFIX + "." + name;
		if (matching.isEmpty()) {
			return key + " names no Quartz job of this application: use the name of a JobDetail's key";
		}
		if (matching.size() > 1) {
			return key + " is ambiguous: jobs " + matching + " share the name";
		}
		String problem = entryProblem(key, entry);
		if (problem != null) {
			return problem;
		}
		Optional<Trigger> original = this.originals.getOrDefault(matching.get(0), Optional.empty());
		if (entry.schedules() && original.isEmpty()) {
			return key + " cannot set the schedule of job " + matching.get(0)
					+ ": it must have exactly one trigger at startup (define one Trigger for it)";
		}
		return null;
	}

	/**
	 * The rules an entry follows whatever the application's jobs (the operator's tool checks documents with them,
	 * through {@link JobEntryRules}): the reason, starting with the key it names, or {@code null}.
	 */
	static @Nullable String entryProblem(String key, Entry entry) {
		if (entry.cron() != null && entry.interval() != null) {
			return key + " sets both cron and interval: keep one";
		}
		if (entry.cron() != null) {
			try {
				CronExpression.validateExpression(entry.cron());
			}
			catch (ParseException ex) {
				// the reason quotes part of the value: keep the position, not the value
				return key + ".cron is not a valid Quartz cron expression ("
						+ String.valueOf(ex.getMessage()).replaceAll("'[^']*'", "'…'") + ")";
			}
		}
		if (entry.interval() != null) {
			String reason = intervalProblem(entry.interval());
			if (reason != null) {
				return key + ".interval " + reason;
			}
		}
		return null;
	}

	/** Why Quartz cannot repeat at the interval, or {@code null}: it counts whole milliseconds from now. */
	private static @Nullable String intervalProblem(Duration interval) {
		if (interval.isNegative() || interval.isZero()) {
			return "must be positive";
		}
		if (interval.compareTo(Duration.ofMillis(1)) < 0) {
			return "must be at least 1ms: Quartz repeats at whole milliseconds";
		}
		try {
			Math.addExact(System.currentTimeMillis(), Math.multiplyExact(interval.toMillis(), 2));
		}
		catch (ArithmeticException ex) {
			return "is too long: Quartz counts fire times in milliseconds since 1970 in a long";
		}
		return null;
	}

	/** Apply an accepted entry's schedule to the job, unless it is in force already. */
	void applySchedule(Scheduler scheduler, JobKey job, Entry entry) throws SchedulerException {
		Entry current = this.applied.getOrDefault(job, Entry.NONE);
		if (Objects.equals(current.cron(), entry.cron()) && Objects.equals(current.interval(), entry.interval())) {
			return;
		}
		Optional<Trigger> original = this.originals.getOrDefault(job, Optional.empty());
		if (original.isEmpty()) {
			return;
		}
		Trigger now = scheduler.getTrigger(original.get().getKey());
		Trigger base = (now != null) ? now : original.get();
		@SuppressWarnings("unchecked")
		TriggerBuilder<Trigger> from = (TriggerBuilder<Trigger>) base.getTriggerBuilder();
		TriggerBuilder<? extends Trigger> builder;
		Trigger coded = original.get();
		if (entry.cron() != null) {
			TimeZone zone = (base instanceof CronTrigger cron) ? cron.getTimeZone() : TimeZone.getDefault();
			builder = from.withSchedule(CodedMisfire.onCron(coded,
					CronScheduleBuilder.cronSchedule(entry.cron()).inTimeZone(zone)));
		}
		else if (entry.interval() != null) {
			builder = from.withSchedule(CodedMisfire.onInterval(coded, SimpleScheduleBuilder.simpleSchedule()
				.withIntervalInMilliseconds(entry.interval().toMillis())
				.repeatForever()));
		}
		else {
			builder = original.get().getTriggerBuilder();
		}
		replace(scheduler, original.get().getKey(), now, builder);
		this.applied.put(job, entry);
	}

	/** Pause or resume the job's triggers unless they are so already. */
	public static void pause(Scheduler scheduler, JobKey job, boolean paused) throws SchedulerException {
		List<? extends Trigger> triggers = scheduler.getTriggersOfJob(job);
		boolean allPaused = !triggers.isEmpty();
		boolean anyPaused = false;
		for (Trigger trigger : triggers) {
			boolean pausedNow = scheduler.getTriggerState(trigger.getKey()) == Trigger.TriggerState.PAUSED;
			allPaused &= pausedNow;
			anyPaused |= pausedNow;
		}
		// a trigger added since (a recovery, a run request) is not paused with the others
		if (paused && !allPaused) {
			scheduler.pauseJob(job);
		}
		else if (!paused && anyPaused) {
			scheduler.resumeJob(job);
		}
	}

	void refused(String name, @Nullable String reason) {
		String key = PREFIX + "." + name;
		if (reason == null) {
			this.refusals.remove(key);
		}
		else if (!reason.equals(this.refusals.put(key, reason))) {
			logger.warn("Refused " + reason + "; the job keeps its schedule");
		}
	}

	/**
	 * Replace the trigger, its first fire time strictly after both now and its last fire time here: a
	 * cron trigger's first fire time is otherwise computed from one second before its start.
	 */
	private static void replace(Scheduler scheduler, TriggerKey key, @Nullable Trigger now,
			TriggerBuilder<? extends Trigger> builder) throws SchedulerException {
		long last = (now != null && now.getPreviousFireTime() != null) ? now.getPreviousFireTime().getTime() : 0;
		Date after = new Date(Math.max(System.currentTimeMillis(), last));
		Date first = builder.startAt(after).build().getFireTimeAfter(after);
		if (first == null) {
			if (now != null) {
				scheduler.unscheduleJob(key);
			}
			return;
		}
		Trigger next = builder.startAt(first).build();
		if (now != null) {
			scheduler.rescheduleJob(key, next);
		}
		else {
			scheduler.scheduleJob(next);
		}
		logger.info("Trigger " + key + " rescheduled from zk.quartz.jobs; next fire time " + next.getNextFireTime());
	}

}
