package dev.zkspring.sample;

import java.time.Duration;

import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The recorded job and its trigger, plain Spring Boot Quartz beans: zk-spring runs them on the leader
 * only. An instance started with {@code zk.leader.enabled=false} takes no part in the election and
 * schedules no job (its Quartz would otherwise run ungated). The {@code groups} profile adds a second job,
 * {@code audit}, and puts each job in a leader group of its own. The {@code shards} profile adds the
 * sharded job {@code regions}, which requests recovery: a lost owner's shard is re-run once elsewhere.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "zk.leader.enabled", matchIfMissing = true)
class JobConfiguration {

	@Bean
	JobDetail recordedJob() {
		return JobBuilder.newJob(RecordedJob.class).withIdentity("recorded").storeDurably().build();
	}

	@Bean
	Trigger recordedJobTrigger(JobDetail recordedJob, @Value("${sample.job.interval:1s}") Duration interval) {
		return TriggerBuilder.newTrigger()
			.forJob(recordedJob)
			.withIdentity("recorded")
			.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(interval.toMillis()).repeatForever())
			.build();
	}

	@Bean
	@ConditionalOnBooleanProperty("sample.audit.enabled")
	JobDetail auditJob() {
		return JobBuilder.newJob(AuditJob.class).withIdentity("audit").storeDurably().build();
	}

	@Bean
	@ConditionalOnBooleanProperty("sample.audit.enabled")
	Trigger auditJobTrigger(JobDetail auditJob, @Value("${sample.audit.interval:1s}") Duration interval) {
		return TriggerBuilder.newTrigger()
			.forJob(auditJob)
			.withIdentity("audit")
			.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(interval.toMillis()).repeatForever())
			.build();
	}

	@Bean
	@ConditionalOnBooleanProperty("sample.regions.enabled")
	JobDetail regionsJob() {
		return JobBuilder.newJob(RegionsJob.class).withIdentity("regions").storeDurably().requestRecovery().build();
	}

	@Bean
	@ConditionalOnBooleanProperty("sample.regions.enabled")
	Trigger regionsJobTrigger(JobDetail regionsJob, @Value("${sample.regions.cron:*/2 * * * * ?}") String cron) {
		// a cron: every instance means the same fire times by it, whichever leads
		return TriggerBuilder.newTrigger()
			.forJob(regionsJob)
			.withIdentity("regions")
			.withSchedule(CronScheduleBuilder.cronSchedule(cron))
			.build();
	}

}
