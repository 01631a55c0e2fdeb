package dev.zkspring.leader;

import org.quartz.JobBuilder;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.core.env.Environment;

/** The job and trigger every simulated instance defines, as a user would with Spring Boot's Quartz. */
public final class RecordingJobConfiguration {

	private RecordingJobConfiguration() {
	}

	public static JobDetail job(ExecutionRecorder recorder, Environment environment) {
		JobDataMap data = new JobDataMap();
		data.put(RecordingJob.RECORDER, recorder);
		data.put(RecordingJob.INSTANCE, environment.getRequiredProperty("zk.leader.id"));
		data.put(RecordingJob.WORK_MILLIS, environment.getProperty("test.work-millis", Long.class, 40L));
		return JobBuilder.newJob(RecordingJob.class).withIdentity("recording").usingJobData(data).storeDurably().build();
	}

	public static Trigger trigger(JobDetail job, Environment environment) {
		long interval = environment.getProperty("test.interval-millis", Long.class, 100L);
		return TriggerBuilder.newTrigger()
			.forJob(job)
			.withIdentity("recording")
			.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(interval).repeatForever())
			.build();
	}

}
