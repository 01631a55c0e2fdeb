package dev.zkspring.leader.quartz;

import org.quartz.spi.TriggerFiredBundle;

import org.springframework.beans.factory.annotation.AutowiredAnnotationBeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.scheduling.quartz.SpringBeanJobFactory;

/**
 * Spring's job factory, plus the {@code @Autowired} and {@code @Value} injection it gets from the bean
 * factory on a normal run: an AOT-processed context registers no annotation post-processors (the
 * injection of its beans is generated code), so a job, created afresh for each firing and no bean, would
 * run with its members unset.
 */
public final class AotJobFactory extends SpringBeanJobFactory {

	private final AutowiredAnnotationBeanPostProcessor injection = new AutowiredAnnotationBeanPostProcessor();

	public AotJobFactory(ApplicationContext context) {
		setApplicationContext(context);
		this.injection.setBeanFactory((ConfigurableListableBeanFactory) context.getAutowireCapableBeanFactory());
	}

	@Override
	protected Object createJobInstance(TriggerFiredBundle bundle) throws Exception {
		Object job = super.createJobInstance(bundle);
		this.injection.processInjection(job);
		return job;
	}

}
