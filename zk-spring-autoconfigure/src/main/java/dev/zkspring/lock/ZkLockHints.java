package dev.zkspring.lock;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * What {@code @ZkLock} reaches by reflection, for a native image: the key expressions' root object and,
 * per bean with locked methods, those methods (found and invoked by the interceptor) and the public
 * methods of their parameter types (a key such as {@code #order.id} reads a getter). Registered in
 * {@code META-INF/spring/aot.factories}.
 */
final class ZkLockHints implements RuntimeHintsRegistrar, BeanRegistrationAotProcessor {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.reflection().registerType(LockExpressionRoot.class, MemberCategory.INVOKE_PUBLIC_METHODS);
	}

	@Override
	public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
		Class<?> type = ClassUtils.getUserClass(bean.getBeanClass());
		if (!AnnotationUtils.isCandidateClass(type, ZkLock.class)) {
			return null;
		}
		List<Method> locked = Arrays
			.stream(ReflectionUtils.getUniqueDeclaredMethods(type, ReflectionUtils.USER_DECLARED_METHODS))
			.filter((method) -> AnnotatedElementUtils.hasAnnotation(method, ZkLock.class))
			.toList();
		if (locked.isEmpty()) {
			return null;
		}
		return (context, code) -> {
			ReflectionHints reflection = context.getRuntimeHints().reflection();
			for (Method method : locked) {
				reflection.registerMethod(method, ExecutableMode.INVOKE);
				for (Class<?> parameter : method.getParameterTypes()) {
					if (!parameter.isPrimitive() && !parameter.getName().startsWith("java.")) {
						reflection.registerType(parameter, MemberCategory.INVOKE_PUBLIC_METHODS);
					}
				}
			}
		};
	}

}
