package dev.zkspring.refresh;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * What a refresh reaches by reflection, for a native image: in every class of a {@link RefreshScope}
 * bean's hierarchy the fields and methods it rewrites ({@code @Value} members, properties' setters) and
 * the init callbacks it calls again, and each bean's {@link ZkConfigListener} methods. Registered in
 * {@code META-INF/spring/aot.factories}.
 */
final class RefreshHints implements BeanRegistrationAotProcessor {

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
		Class<?> type = ClassUtils.getUserClass(bean.getBeanClass());
		Method factoryMethod = bean.getMergedBeanDefinition().getResolvedFactoryMethod();
		boolean refreshScoped = AnnotatedElementUtils.hasAnnotation(type, RefreshScope.class)
				|| (factoryMethod != null && AnnotatedElementUtils.hasAnnotation(factoryMethod, RefreshScope.class));
		List<Method> listeners = Arrays
			.stream(ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS))
			.filter((method) -> AnnotatedElementUtils.hasAnnotation(method, ZkConfigListener.class))
			.toList();
		if (!refreshScoped && listeners.isEmpty()) {
			return null;
		}
		return (context, code) -> {
			ReflectionHints reflection = context.getRuntimeHints().reflection();
			if (refreshScoped) {
				for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
					reflection.registerType(current, MemberCategory.ACCESS_DECLARED_FIELDS,
							MemberCategory.INVOKE_DECLARED_METHODS, MemberCategory.INVOKE_DECLARED_CONSTRUCTORS);
				}
			}
			listeners.forEach((method) -> reflection.registerMethod(method, ExecutableMode.INVOKE));
		};
	}

}
