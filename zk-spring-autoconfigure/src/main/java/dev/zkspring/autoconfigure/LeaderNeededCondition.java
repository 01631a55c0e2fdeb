package dev.zkspring.autoconfigure;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.zkspring.leader.LeaderOnly;

/**
 * Elect only where something needs a leader, so an application with neither leader-gated jobs nor
 * {@link LeaderOnly} methods needs no {@code spring.application.name} and joins no election:
 * {@code zk.leader.enabled} decides when set; otherwise a Quartz job or trigger bean (or a JDBC job store)
 * with the scheduler leader-gated, or a bean with a {@code @LeaderOnly} method, does. Evaluated once the
 * application's own bean definitions are registered.
 */
class LeaderNeededCondition extends SpringBootCondition implements ConfigurationCondition {

	static final String ENABLED = "zk.leader.enabled";

	/** Quartz itself, named as a string: it is optional, and this condition runs on every class path. */
	private static final String QUARTZ_SCHEDULER = "org.quartz.Scheduler";

	@Override
	public ConfigurationPhase getConfigurationPhase() {
		return ConfigurationPhase.REGISTER_BEAN;
	}

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		Environment environment = context.getEnvironment();
		Boolean enabled = environment.getProperty(ENABLED, Boolean.class);
		if (enabled != null) {
			return new ConditionOutcome(enabled, ENABLED + "=" + enabled);
		}
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		if (beanFactory == null) {
			return ConditionOutcome.noMatch("no bean factory to look for what needs a leader in");
		}
		Optional<String> gatedJobs = gatedJobs(environment, beanFactory, context.getClassLoader());
		if (gatedJobs.isPresent()) {
			return ConditionOutcome.match(gatedJobs.get());
		}
		Optional<String> leaderOnly = leaderOnlyBean(beanFactory);
		return leaderOnly.map(ConditionOutcome::match)
			.orElseGet(() -> ConditionOutcome.noMatch("nothing needs a leader: no leader-gated Quartz job or trigger, "
					+ "no @LeaderOnly method, and " + ENABLED + " is not set"));
	}

	private static Optional<String> gatedJobs(Environment environment, ConfigurableListableBeanFactory beanFactory,
			@Nullable ClassLoader classLoader) {
		// both: spring-context-support (which holds SchedulerFactoryBean) is on many a class path without Quartz
		if (!ClassUtils.isPresent(QUARTZ_SCHEDULER, classLoader)
				|| !ClassUtils.isPresent("org.springframework.scheduling.quartz.SchedulerFactoryBean", classLoader)) {
			return Optional.empty();
		}
		if (hasBeansOf("dev.zkspring.jobs.LeaderGatedSchedulerFactoryBean", beanFactory, classLoader)) {
			return Optional.of("a LeaderGatedSchedulerFactoryBean");
		}
		if (!environment.getProperty("zk.quartz.leader-gated", Boolean.class, true)) {
			return Optional.empty();
		}
		for (String type : new String[] { "org.quartz.JobDetail", "org.quartz.Trigger" }) {
			if (hasBeansOf(type, beanFactory, classLoader)) {
				return Optional.of("a leader-gated Quartz scheduler with " + ClassUtils.getShortName(type) + " beans");
			}
		}
		if ("jdbc".equalsIgnoreCase(environment.getProperty("spring.quartz.job-store-type"))) {
			return Optional.of("a leader-gated Quartz scheduler with a JDBC job store");
		}
		return Optional.empty();
	}

	private static boolean hasBeansOf(String type, ConfigurableListableBeanFactory beanFactory,
			@Nullable ClassLoader classLoader) {
		if (!ClassUtils.isPresent(type, classLoader)) {
			return false;
		}
		return beanFactory.getBeanNamesForType(ClassUtils.resolveClassName(type, classLoader), true, false).length > 0;
	}

	private static Optional<String> leaderOnlyBean(ConfigurableListableBeanFactory beanFactory) {
		for (String name : beanFactory.getBeanDefinitionNames()) {
			Class<?> type = beanFactory.getType(name, false);
			if (type != null && hasLeaderOnlyMethod(type)) {
				return Optional.of("bean '" + name + "' has @LeaderOnly methods");
			}
		}
		return Optional.empty();
	}

	/**
	 * Whether the type declares a {@code @LeaderOnly} method; false for a type whose methods cannot be read
	 * (a signature naming a class of a library the application does not have): Spring could not advise it either.
	 */
	static boolean hasLeaderOnlyMethod(Class<?> type) {
		Class<?> user = ClassUtils.getUserClass(type);
		if (!AnnotationUtils.isCandidateClass(user, LeaderOnly.class)) {
			return false;
		}
		Method[] methods;
		try {
			methods = ReflectionUtils.getUniqueDeclaredMethods(user, ReflectionUtils.USER_DECLARED_METHODS);
		}
		catch (IllegalStateException | LinkageError ex) {
			return false;
		}
		return Arrays.stream(methods).anyMatch((method) -> AnnotatedElementUtils.hasAnnotation(method, LeaderOnly.class));
	}

	/** Nothing needs a leader, and {@code zk.leader.enabled} is not set to false either. */
	static class NotNeeded extends LeaderNeededCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			if (Boolean.FALSE.equals(context.getEnvironment().getProperty(ENABLED, Boolean.class))) {
				return ConditionOutcome.noMatch(ENABLED + "=false");
			}
			ConditionOutcome needed = super.getMatchOutcome(context, metadata);
			return new ConditionOutcome(!needed.isMatch(), needed.getConditionMessage());
		}

	}

}
