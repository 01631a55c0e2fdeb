package dev.zkspring.distcheck.layout;

import java.util.concurrent.atomic.AtomicInteger;

import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** An application that uses every capability that writes to ZooKeeper: config, a lock, a leader-gated job. */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
class LayoutApplication {

	@Bean
	JobDetail tickJob() {
		return JobBuilder.newJob(Tick.class).withIdentity("tick").storeDurably().requestRecovery().build();
	}

	@Bean
	Trigger tickTrigger(JobDetail tickJob) {
		return TriggerBuilder.newTrigger().forJob(tickJob).withIdentity("tick")
			.withSchedule(SimpleScheduleBuilder.repeatSecondlyForever(1))
			.build();
	}

	/** A job that only counts its runs. */
	public static class Tick implements Job {

		static final AtomicInteger runs = new AtomicInteger();

		@Override
		public void execute(JobExecutionContext context) {
			runs.incrementAndGet();
		}

	}

}
