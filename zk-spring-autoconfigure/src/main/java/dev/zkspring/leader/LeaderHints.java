package dev.zkspring.leader;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * What leadership reaches by reflection, for a native image: the flag that marks a recovered job's
 * execution as recovering (set on Quartz's own context class) and, per bean, its {@code @LeaderOnly}
 * methods (found and invoked by the interceptor). The jobs themselves:
 * {@code dev.zkspring.leader.quartz.LeaderJobHints}.
 * Registered in {@code META-INF/spring/aot.factories}.
 */
final class LeaderHints implements RuntimeHintsRegistrar, BeanRegistrationAotProcessor {

	static final String EXECUTION_CONTEXT = "org.quartz.impl.JobExecutionContextImpl";

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		if (ClassUtils.isPresent(EXECUTION_CONTEXT, classLoader)) {
			hints.reflection().registerType(TypeReference.of(EXECUTION_CONTEXT),
					(type) -> type.withField("recovering"));
		}
	}

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
		Class<?> type = ClassUtils.getUserClass(bean.getBeanClass());
		if (!AnnotationUtils.isCandidateClass(type, LeaderOnly.class)) {
			return null;
		}
		List<Method> leaderOnly = Arrays
			.stream(ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS))
			.filter((method) -> AnnotatedElementUtils.hasAnnotation(method, LeaderOnly.class))
			.toList();
		if (leaderOnly.isEmpty()) {
			return null;
		}
		return (context, code) -> leaderOnly
			.forEach((method) -> context.getRuntimeHints().reflection().registerMethod(method, ExecutableMode.INVOKE));
	}

}
