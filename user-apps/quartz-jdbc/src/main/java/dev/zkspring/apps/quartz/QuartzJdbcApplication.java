package dev.zkspring.apps.quartz;

import java.util.concurrent.atomic.AtomicInteger;

import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.quartz.QuartzJobBean;
import org.springframework.stereotype.Component;

/** A Quartz application on the JDBC job store (clustered, an embedded database here): its job runs on the leader. */
@SpringBootApplication
public class QuartzJdbcApplication {

	public static void main(String[] args) {
		SpringApplication.run(QuartzJdbcApplication.class, args);
	}

	@Bean
	JobDetail invoicing() {
		return JobBuilder.newJob(InvoicingJob.class).withIdentity("invoicing").storeDurably().build();
	}

	@Bean
	Trigger everySecond(JobDetail invoicing) {
		return TriggerBuilder.newTrigger().forJob(invoicing).withIdentity("invoicing-trigger")
			.withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(1)).build();
	}

	/** Counts the runs, so a test can see them. */
	@Component
	public static class Runs {

		final AtomicInteger count = new AtomicInteger();

		public int count() {
			return this.count.get();
		}

	}

	/** The job: one run per fire time, on the leader only. */
	public static class InvoicingJob extends QuartzJobBean {

		private final Runs runs;

		public InvoicingJob(Runs runs) {
			this.runs = runs;
		}

		@Override
		protected void executeInternal(JobExecutionContext context) {
			this.runs.count.incrementAndGet();
		}

	}

}
