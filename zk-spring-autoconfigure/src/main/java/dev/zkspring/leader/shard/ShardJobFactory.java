package dev.zkspring.leader.shard;

import org.quartz.Job;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.spi.TriggerFiredBundle;

import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.annotation.AutowiredAnnotationBeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.scheduling.quartz.SpringBeanJobFactory;

/**
 * The gated scheduler's job factory: Spring's (as Boot configures it, plus {@code @Autowired} injection in
 * an AOT-processed context), except that a firing of a sharded job creates its dispatch instead of the
 * job: on the leader, a sharded job's fire time only names the shards' owners, who run the job itself.
 */
final class ShardJobFactory extends SpringBeanJobFactory {

	private final ShardSettings settings;

	private final ShardDispatchJob.Dispatch dispatch;

	private final AutowiredAnnotationBeanPostProcessor injection = new AutowiredAnnotationBeanPostProcessor();

	private final boolean aot = AotDetector.useGeneratedArtifacts();

	ShardJobFactory(ApplicationContext context, ShardSettings settings, ShardDispatchJob.Dispatch dispatch) {
		setApplicationContext(context);
		this.injection.setBeanFactory((ConfigurableListableBeanFactory) context.getAutowireCapableBeanFactory());
		this.settings = settings;
		this.dispatch = dispatch;
	}

	@Override
	public Job newJob(TriggerFiredBundle bundle, Scheduler scheduler) throws SchedulerException {
		ShardSettings.Shards shards = this.settings.of(bundle.getJobDetail().getKey().getName());
		if (shards != null) {
			return new ShardDispatchJob(shards, this.dispatch);
		}
		return super.newJob(bundle, scheduler);
	}

	/** The job itself, for one shard's run on its owner. */
	Job newShardJob(TriggerFiredBundle bundle, Scheduler scheduler) throws SchedulerException {
		return super.newJob(bundle, scheduler);
	}

	@Override
	protected Object createJobInstance(TriggerFiredBundle bundle) throws Exception {
		Object job = super.createJobInstance(bundle);
		if (this.aot) {
			this.injection.processInjection(job);
		}
		return job;
	}

}
