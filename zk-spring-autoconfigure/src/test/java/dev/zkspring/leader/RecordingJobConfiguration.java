package dev.zkspring.leader;

import org.quartz.JobBuilder;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.quartz.autoconfigure.QuartzAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkQuartzAutoConfiguration;

/** The job and trigger every simulated instance defines, as a user would with Spring Boot's Quartz. */
public final class RecordingJobConfiguration {

	/**
	 * A leader-gated Quartz application defining the recording job and trigger, recording into the
	 * {@link ExecutionRecorder} its {@link AppInstances} give it ({@code withBeans(recorder)}).
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZkAutoConfiguration.class, QuartzAutoConfiguration.class,
			ZkLeaderAutoConfiguration.class, ZkQuartzAutoConfiguration.class })
	public static class GatedApp {

		@Bean
		JobDetail recordingJob(ExecutionRecorder recorder, Environment environment) {
			return job(recorder, environment);
		}

		@Bean
		Trigger recordingTrigger(JobDetail recordingJob, Environment environment) {
			return trigger(recordingJob, environment);
		}

	}

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
