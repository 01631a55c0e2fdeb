package dev.zkspring.leader.quartz;

import java.util.LinkedHashSet;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.quartz.JobDetail;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotContribution;
import org.springframework.beans.factory.aot.BeanFactoryInitializationAotProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The job classes of the application's {@link JobDetail} beans, for a native image: Quartz's Spring job
 * factory creates and autowires a job by reflection at each firing, and a successor leader loads the job
 * class of a runtime trigger's record by name. A {@code JobDetail} is a plain value: its bean is created at
 * build time to read its class (one that cannot be is skipped, with a line at debug). Registered in
 * {@code META-INF/spring/aot.factories}.
 */
final class LeaderJobHints implements BeanFactoryInitializationAotProcessor {

	private static final Log logger = LogFactory.getLog(LeaderJobHints.class);

	@Override
	public @Nullable BeanFactoryInitializationAotContribution processAheadOfTime(
			ConfigurableListableBeanFactory beanFactory) {
		if (!ClassUtils.isPresent("org.quartz.JobDetail", beanFactory.getBeanClassLoader())) {
			return null;
		}
		Set<Class<?>> jobs = Quartz.jobClasses(beanFactory);
		if (jobs.isEmpty()) {
			return null;
		}
		return (context, code) -> jobs.forEach((job) -> context.getRuntimeHints()
			.reflection()
			.registerType(job, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS, MemberCategory.INVOKE_DECLARED_METHODS,
					MemberCategory.ACCESS_DECLARED_FIELDS));
	}

	/** Apart, so that nothing of Quartz is loaded where it is absent. */
	private static final class Quartz {

		static Set<Class<?>> jobClasses(ConfigurableListableBeanFactory beanFactory) {
			Set<Class<?>> jobs = new LinkedHashSet<>();
			for (String name : beanFactory.getBeanNamesForType(JobDetail.class, false, false)) {
				try {
					jobs.add(beanFactory.getBean(name, JobDetail.class).getJobClass());
				}
				catch (RuntimeException ex) {
					logger.debug("No hints for the job of bean '" + name + "': " + ex);
				}
			}
			return jobs;
		}

	}

}
