package dev.zkspring.docs.leadership;

import org.quartz.CronScheduleBuilder;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** docs/leadership.md, with Spring Boot's Quartz (docs check: DocsSnippetsTests). */
@Configuration(proxyBeanMethods = false)
class BootQuartzJobs {

	// tag::boot-quartz[]
	@Bean
	JobDetail reportJob() {
		return JobBuilder.newJob(ReportJob.class).withIdentity("report").storeDurably().build();
	}

	@Bean
	Trigger reportTrigger(JobDetail reportJob) {
		return TriggerBuilder.newTrigger().forJob(reportJob)
			.withSchedule(CronScheduleBuilder.cronSchedule("0 */5 * * * ?")).build();
	}
	// end::boot-quartz[]

}
