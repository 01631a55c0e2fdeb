package dev.zkspring.leader.quartz;

import java.util.Date;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.quartz.CronScheduleBuilder;
import org.quartz.CronTrigger;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.spi.MutableTrigger;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * The JSON document ({@code "format": 1}) a leader writes for a trigger scheduled at runtime, so that
 * a successor can schedule it again: a cron or simple trigger with its key, job key, times, priority,
 * misfire instruction, calendar, description and data, and the job itself when it was added at runtime.
 * Data maps hold strings, booleans and numbers only, each with its Java type.
 */
final class TriggerRecord {

	private static final int FORMAT = 1;

	private static final JsonMapper json = JsonMapper.builder().build();

	private TriggerRecord() {
	}

	/**
	 * The document for a trigger, and for its job when {@code job} is not null.
	 * @throws IllegalArgumentException saying what cannot be mirrored
	 */
	static byte[] encode(Trigger trigger, @Nullable JobDetail job) {
		ObjectNode root = json.createObjectNode();
		root.put("format", FORMAT);
		if (trigger instanceof CronTrigger cron) {
			root.put("type", "cron");
			root.put("cron", cron.getCronExpression());
			root.put("timeZone", cron.getTimeZone().getID());
		}
		else if (trigger instanceof SimpleTrigger simple) {
			root.put("type", "simple");
			root.put("interval", simple.getRepeatInterval());
			root.put("repeatCount", simple.getRepeatCount());
		}
		else {
			throw new IllegalArgumentException("only cron and simple triggers are mirrored, not "
					+ trigger.getClass().getSimpleName());
		}
		root.put("name", trigger.getKey().getName());
		root.put("group", trigger.getKey().getGroup());
		root.put("jobName", trigger.getJobKey().getName());
		root.put("jobGroup", trigger.getJobKey().getGroup());
		root.put("startTime", trigger.getStartTime().getTime());
		if (trigger.getEndTime() != null) {
			root.put("endTime", trigger.getEndTime().getTime());
		}
		root.put("priority", trigger.getPriority());
		root.put("misfireInstruction", trigger.getMisfireInstruction());
		root.put("calendar", trigger.getCalendarName());
		root.put("description", trigger.getDescription());
		root.set("data", encode(trigger.getJobDataMap(), "trigger " + trigger.getKey()));
		if (job != null) {
			ObjectNode detail = root.putObject("job");
			detail.put("class", job.getJobClass().getName());
			detail.put("durable", job.isDurable());
			detail.put("requestsRecovery", job.requestsRecovery());
			detail.put("description", job.getDescription());
			detail.set("data", encode(job.getJobDataMap(), "job " + job.getKey()));
		}
		return json.writeValueAsBytes(root);
	}

	/**
	 * The trigger (and job, when recorded) a document describes.
	 * @throws IllegalArgumentException saying what is wrong with the document
	 */
	static Decoded decode(byte[] data, ClassLoader classLoader) {
		return decode(data, (className) -> load(className, classLoader));
	}

	/**
	 * The trigger (and job, when recorded) a document describes, with the job class resolved by name by
	 * the caller (which may refuse it, with an {@link IllegalArgumentException} saying why).
	 * @throws IllegalArgumentException saying what is wrong with the document
	 */
	static Decoded decode(byte[] data, Function<String, Class<? extends Job>> jobClasses) {
		try {
			JsonNode root = json.readTree(data);
			if (root == null || !root.isObject() || root.required("format").intValue() != FORMAT) {
				throw new IllegalArgumentException("not a format " + FORMAT + " trigger record");
			}
			String type = root.required("type").stringValue();
			TriggerBuilder<? extends Trigger> builder = switch (type) {
				case "cron" -> TriggerBuilder.newTrigger()
					.withSchedule(CronScheduleBuilder.cronSchedule(root.required("cron").stringValue())
						.inTimeZone(TimeZone.getTimeZone(root.required("timeZone").stringValue())));
				case "simple" -> TriggerBuilder.newTrigger()
					.withSchedule(SimpleScheduleBuilder.simpleSchedule()
						.withIntervalInMilliseconds(root.required("interval").longValue())
						.withRepeatCount(root.required("repeatCount").intValue()));
				default -> throw new IllegalArgumentException("unknown trigger type '" + type + "'");
			};
			builder = builder.withIdentity(root.required("name").stringValue(), root.required("group").stringValue())
				.forJob(root.required("jobName").stringValue(), root.required("jobGroup").stringValue())
				.startAt(new Date(root.required("startTime").longValue()))
				.withPriority(root.required("priority").intValue())
				.usingJobData(decode(root.required("data")));
			if (root.hasNonNull("endTime")) {
				builder = builder.endAt(new Date(root.get("endTime").longValue()));
			}
			if (root.hasNonNull("calendar")) {
				builder = builder.modifiedByCalendar(root.get("calendar").stringValue());
			}
			if (root.hasNonNull("description")) {
				builder = builder.withDescription(root.get("description").stringValue());
			}
			MutableTrigger trigger = (MutableTrigger) builder.build();
			trigger.setMisfireInstruction(root.required("misfireInstruction").intValue());
			JsonNode job = root.get("job");
			return new Decoded(trigger, (job != null && !job.isNull()) ? job(job, trigger, jobClasses) : null);
		}
		catch (StreamReadException ex) {
			// the parser's own message can quote the document (job data): only the position is kept
			var at = ex.getLocation();
			throw new IllegalArgumentException("malformed JSON at " + ((at != null)
					? "line " + at.getLineNr() + ", column " + at.getColumnNr() : "an unknown position"));
		}
		catch (JacksonException ex) {
			// a missing or mistyped member: the message names the member
			throw new IllegalArgumentException(ex.getOriginalMessage(), ex);
		}
		catch (IllegalArgumentException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException(ex.toString(), ex);
		}
	}

	private static Class<? extends Job> load(String className, ClassLoader classLoader) {
		Class<?> type;
		try {
			type = Class.forName(className, false, classLoader);
		}
		catch (ClassNotFoundException | LinkageError ex) {
			throw new IllegalArgumentException("job class " + className + " cannot be loaded here");
		}
		if (!Job.class.isAssignableFrom(type)) {
			throw new IllegalArgumentException("job class " + className + " does not implement org.quartz.Job");
		}
		return type.asSubclass(Job.class);
	}

	private static JobDetail job(JsonNode job, Trigger trigger, Function<String, Class<? extends Job>> jobClasses) {
		JobBuilder builder = JobBuilder.newJob(jobClasses.apply(job.required("class").stringValue()))
			.withIdentity(trigger.getJobKey())
			.storeDurably(job.required("durable").booleanValue())
			.requestRecovery(job.required("requestsRecovery").booleanValue())
			.usingJobData(decode(job.required("data")));
		if (job.hasNonNull("description")) {
			builder.withDescription(job.get("description").stringValue());
		}
		return builder.build();
	}

	private static ObjectNode encode(JobDataMap data, String owner) {
		ObjectNode node = json.createObjectNode();
		for (Map.Entry<String, Object> entry : data.entrySet()) {
			Object value = entry.getValue();
			ObjectNode typed = node.putObject(entry.getKey());
			if (value instanceof String text) {
				typed.put("string", text);
			}
			else if (value instanceof Boolean flag) {
				typed.put("boolean", flag);
			}
			else if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
					|| value instanceof Double || value instanceof Float) {
				String type = value.getClass().getSimpleName().toLowerCase(Locale.ROOT);
				typed.put(type.equals("integer") ? "int" : type, value.toString());
			}
			else {
				throw new IllegalArgumentException("the data of " + owner + " holds '" + entry.getKey()
						+ "', neither a string, a boolean nor a number");
			}
		}
		return node;
	}

	private static JobDataMap decode(JsonNode node) {
		JobDataMap data = new JobDataMap();
		for (Map.Entry<String, JsonNode> entry : node.properties()) {
			Map.Entry<String, JsonNode> typed = entry.getValue().properties().iterator().next();
			JsonNode value = typed.getValue();
			data.put(entry.getKey(), switch (typed.getKey()) {
				case "string" -> value.stringValue();
				case "boolean" -> value.booleanValue();
				case "int" -> Integer.valueOf(value.stringValue());
				case "long" -> Long.valueOf(value.stringValue());
				case "short" -> Short.valueOf(value.stringValue());
				case "byte" -> Byte.valueOf(value.stringValue());
				case "double" -> Double.valueOf(value.stringValue());
				case "float" -> Float.valueOf(value.stringValue());
				default -> throw new IllegalArgumentException("data value '" + entry.getKey() + "' has unknown type '"
						+ typed.getKey() + "'");
			});
		}
		return data;
	}

	/** A trigger read from its record, and its job when the record has one. */
	record Decoded(Trigger trigger, @Nullable JobDetail job) {
	}

}
