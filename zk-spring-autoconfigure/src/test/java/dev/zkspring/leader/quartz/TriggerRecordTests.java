package dev.zkspring.leader.quartz;

import java.nio.charset.StandardCharsets;
import java.util.Date;
import java.util.TimeZone;

import org.junit.jupiter.api.Test;
import org.quartz.CalendarIntervalScheduleBuilder;
import org.quartz.CronScheduleBuilder;
import org.quartz.CronTrigger;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import dev.zkspring.leader.RecordingJob;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The record of a runtime trigger keeps what a successor needs to schedule it again, types included. */
class TriggerRecordTests {

	private final ClassLoader loader = getClass().getClassLoader();

	@Test
	void aCronTriggerAndItsJobRoundTripWithTheirDataTypes() {
		Date start = new Date(1_800_000_000_000L);
		Date end = new Date(1_900_000_000_000L);
		Trigger trigger = TriggerBuilder.newTrigger().withIdentity("t", "g").forJob("j", "jg").startAt(start).endAt(end)
			.withPriority(7).modifiedByCalendar("holidays").withDescription("nightly")
			.usingJobData("s", "text").usingJobData("i", 1).usingJobData("l", 2L).usingJobData("d", 3.5)
			.usingJobData("f", 4.5f).usingJobData("b", true)
			.withSchedule(CronScheduleBuilder.cronSchedule("0 0 3 * * ?").inTimeZone(TimeZone.getTimeZone("Europe/Paris"))
				.withMisfireHandlingInstructionDoNothing())
			.build();
		trigger.getJobDataMap().put("short", (Object) Short.valueOf((short) 5));
		trigger.getJobDataMap().put("byte", (Object) Byte.valueOf((byte) 6));
		JobDetail job = JobBuilder.newJob(RecordingJob.class).withIdentity("j", "jg").storeDurably().requestRecovery()
			.withDescription("the job").usingJobData("k", "v").build();

		TriggerRecord.Decoded decoded = TriggerRecord.decode(TriggerRecord.encode(trigger, job), this.loader);

		CronTrigger cron = (CronTrigger) decoded.trigger();
		assertThat(cron.getKey()).isEqualTo(trigger.getKey());
		assertThat(cron.getJobKey()).isEqualTo(trigger.getJobKey());
		assertThat(cron.getCronExpression()).isEqualTo("0 0 3 * * ?");
		assertThat(cron.getTimeZone().getID()).isEqualTo("Europe/Paris");
		assertThat(cron.getStartTime()).isEqualTo(start);
		assertThat(cron.getEndTime()).isEqualTo(end);
		assertThat(cron.getPriority()).isEqualTo(7);
		assertThat(cron.getMisfireInstruction()).isEqualTo(CronTrigger.MISFIRE_INSTRUCTION_DO_NOTHING);
		assertThat(cron.getCalendarName()).isEqualTo("holidays");
		assertThat(cron.getDescription()).isEqualTo("nightly");
		assertThat(cron.getJobDataMap().getWrappedMap()).isEqualTo(trigger.getJobDataMap().getWrappedMap());
		assertThat(cron.getJobDataMap().get("short")).isInstanceOf(Short.class);
		assertThat(cron.getJobDataMap().get("byte")).isInstanceOf(Byte.class);
		assertThat(cron.getJobDataMap().get("f")).isInstanceOf(Float.class);
		JobDetail restored = decoded.job();
		assertThat(restored).isNotNull();
		assertThat(restored.getJobClass()).isEqualTo(RecordingJob.class);
		assertThat(restored.isDurable()).isTrue();
		assertThat(restored.requestsRecovery()).isTrue();
		assertThat(restored.getDescription()).isEqualTo("the job");
		assertThat(restored.getJobDataMap().getString("k")).isEqualTo("v");
	}

	@Test
	void aSimpleTriggerRoundTripsWithoutAJob() {
		Trigger trigger = TriggerBuilder.newTrigger().withIdentity("s").forJob("j").startAt(new Date(1_800_000_000_000L))
			.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(1500).withRepeatCount(4)
				.withMisfireHandlingInstructionNextWithExistingCount())
			.build();

		TriggerRecord.Decoded decoded = TriggerRecord.decode(TriggerRecord.encode(trigger, null), this.loader);

		SimpleTrigger simple = (SimpleTrigger) decoded.trigger();
		assertThat(simple.getRepeatInterval()).isEqualTo(1500);
		assertThat(simple.getRepeatCount()).isEqualTo(4);
		assertThat(simple.getMisfireInstruction()).isEqualTo(trigger.getMisfireInstruction());
		assertThat(simple.getEndTime()).isNull();
		assertThat(decoded.job()).isNull();
	}

	@Test
	void whatCannotBeMirroredOrReadIsSaidPlainly() {
		Trigger calendar = TriggerBuilder.newTrigger().withIdentity("c").forJob("j")
			.withSchedule(CalendarIntervalScheduleBuilder.calendarIntervalSchedule().withIntervalInDays(1)).build();
		assertThatIllegalArgumentException().isThrownBy(() -> TriggerRecord.encode(calendar, null))
			.withMessageContaining("only cron and simple triggers are mirrored");
		Trigger object = TriggerBuilder.newTrigger().withIdentity("o").forJob("j").usingJobData(new org.quartz.JobDataMap(
				java.util.Map.of("when", new Date()))).build();
		assertThatIllegalArgumentException().isThrownBy(() -> TriggerRecord.encode(object, null))
			.withMessageContaining("the data of trigger DEFAULT.o holds 'when', neither a string, a boolean nor a number");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> TriggerRecord.decode("{\"format\": 2}".getBytes(StandardCharsets.UTF_8), this.loader))
			.withMessageContaining("not a format 1 trigger record");
		byte[] notAJob = new String(TriggerRecord.encode(TriggerBuilder.newTrigger().withIdentity("n").forJob("j").build(),
				JobBuilder.newJob(RecordingJob.class).withIdentity("j").build()), StandardCharsets.UTF_8)
			.replace(RecordingJob.class.getName(), String.class.getName())
			.getBytes(StandardCharsets.UTF_8);
		assertThatIllegalArgumentException().isThrownBy(() -> TriggerRecord.decode(notAJob, this.loader))
			.withMessageContaining("job class java.lang.String does not implement org.quartz.Job");
	}

	@Test
	void aMalformedRecordIsNamedByPositionWithoutQuotingItsData() {
		byte[] malformed = "{\"format\": 1, \"data\": {\"password\": s3cr3t-value}}".getBytes(StandardCharsets.UTF_8);
		assertThatIllegalArgumentException().isThrownBy(() -> TriggerRecord.decode(malformed, this.loader))
			.withMessageStartingWith("malformed JSON at line 1, column")
			.withMessageNotContaining("s3cr3t");
	}

}
