package dev.zkspring.leader.shard;

import java.lang.reflect.Field;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.quartz.Job;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.core.QuartzScheduler;
import org.quartz.impl.StdScheduler;
import org.quartz.spi.JobFactory;
import org.quartz.spi.TriggerFiredBundle;

import org.springframework.aot.AotDetector;
import org.springframework.beans.factory.annotation.AutowiredAnnotationBeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.scheduling.quartz.SpringBeanJobFactory;

/**
 * The gated scheduler's job factory: the scheduler's own (Boot's {@code SpringBeanJobFactory}, or one an
 * application set through a {@code SchedulerFactoryBeanCustomizer}), to which it delegates, except that a
 * firing of a sharded job creates its dispatch instead of the job: on the leader, a sharded job's fire
 * time only names the shards' owners, who run the job itself, created by that same factory.
 */
final class ShardJobFactory implements JobFactory {

	private static final Log logger = LogFactory.getLog(ShardJobFactory.class);

	private final ShardSettings settings;

	private final ShardDispatchJob.Dispatch dispatch;

	/** The factory that creates the jobs themselves; Spring's until the scheduler's own is known. */
	private volatile JobFactory delegate;

	ShardJobFactory(ApplicationContext context, ShardSettings settings, ShardDispatchJob.Dispatch dispatch) {
		this.settings = settings;
		this.dispatch = dispatch;
		this.delegate = new SpringJobFactory(context);
	}

	/**
	 * Put this factory in front of the scheduler's own, which keeps creating the jobs. Quartz offers no
	 * getter for a scheduler's factory: it is read from the scheduler's core; when that cannot be read,
	 * Spring's factory (as Boot configures it) creates the jobs and a WARN says so.
	 */
	void wrap(Scheduler scheduler) throws SchedulerException {
		JobFactory current = currentFactory(scheduler);
		if (current == this) {
			return;
		}
		if (current != null) {
			this.delegate = current;
		}
		else {
			logger.warn("Could not read the job factory of Quartz scheduler '" + scheduler.getSchedulerName()
					+ "': its jobs are created by Spring's SpringBeanJobFactory, as Boot configures it");
		}
		scheduler.setJobFactory(this);
	}

	/** The factory creating the jobs themselves (tests). */
	JobFactory delegate() {
		return this.delegate;
	}

	private static @Nullable JobFactory currentFactory(Scheduler scheduler) {
		if (!(scheduler instanceof StdScheduler)) {
			return null;
		}
		try {
			Field core = StdScheduler.class.getDeclaredField("sched");
			core.setAccessible(true);
			return ((QuartzScheduler) core.get(scheduler)).getJobFactory();
		}
		catch (ReflectiveOperationException | RuntimeException ex) {
			return null;
		}
	}

	@Override
	public Job newJob(TriggerFiredBundle bundle, Scheduler scheduler) throws SchedulerException {
		ShardSettings.Shards shards = this.settings.of(bundle.getJobDetail().getKey().getName());
		if (shards != null) {
			return new ShardDispatchJob(shards, this.dispatch);
		}
		return this.delegate.newJob(bundle, scheduler);
	}

	/** The job itself, for one shard's run on its owner. */
	Job newShardJob(TriggerFiredBundle bundle, Scheduler scheduler) throws SchedulerException {
		return this.delegate.newJob(bundle, scheduler);
	}

	/** Spring's factory as Boot configures it, plus {@code @Autowired} injection in an AOT-processed context. */
	private static final class SpringJobFactory extends SpringBeanJobFactory {

		private final AutowiredAnnotationBeanPostProcessor injection = new AutowiredAnnotationBeanPostProcessor();

		private final boolean aot = AotDetector.useGeneratedArtifacts();

		SpringJobFactory(ApplicationContext context) {
			setApplicationContext(context);
			this.injection.setBeanFactory((ConfigurableListableBeanFactory) context.getAutowireCapableBeanFactory());
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

}
