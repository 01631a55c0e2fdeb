package dev.zkspring.refresh;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.InitializingBean;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.AbstractBeanDefinition;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * The init callbacks of a refreshed bean, run again once after a refresh wrote any of its fields
 * ({@code @Value} members or bound properties alike), so that state it derives from them follows, as if
 * it had been created again: {@code @PostConstruct} methods
 * (superclass first), {@link InitializingBean#afterPropertiesSet()}, then the bean definition's
 * init methods, in the order the bean factory ran them.
 */
final class InitCallbacks {

	private static final String POST_CONSTRUCT = "jakarta.annotation.PostConstruct";

	private InitCallbacks() {
	}

	/** The action that runs a bean's init callbacks again, or {@code null} when it has none. */
	static PendingWrite.@Nullable Action of(Object bean, String beanName, ConfigurableListableBeanFactory beanFactory) {
		List<PendingWrite.Action> callbacks = new ArrayList<>();
		List<Method> postConstruct = postConstructMethods(ClassUtils.getUserClass(bean));
		postConstruct.forEach((method) -> callbacks.add(() -> invoke(method, bean)));
		if (bean instanceof InitializingBean initializing) {
			callbacks.add(initializing::afterPropertiesSet);
		}
		if (beanFactory.containsBeanDefinition(beanName)
				&& beanFactory.getMergedBeanDefinition(beanName) instanceof AbstractBeanDefinition definition
				&& definition.getInitMethodNames() != null) {
			for (String name : definition.getInitMethodNames()) {
				Method method = ReflectionUtils.findMethod(bean.getClass(), name);
				boolean ran = postConstruct.contains(method)
						|| (bean instanceof InitializingBean && "afterPropertiesSet".equals(name));
				if (method != null && method.getParameterCount() == 0 && !ran) {
					ReflectionUtils.makeAccessible(method);
					callbacks.add(() -> invoke(method, bean));
				}
			}
		}
		if (callbacks.isEmpty()) {
			return null;
		}
		return () -> {
			for (PendingWrite.Action callback : callbacks) {
				callback.run();
			}
		};
	}

	private static void invoke(Method method, Object bean) throws Throwable {
		try {
			method.invoke(bean);
		}
		catch (java.lang.reflect.InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

	private static List<Method> postConstructMethods(Class<?> type) {
		List<Class<?>> hierarchy = new ArrayList<>();
		for (Class<?> current = type; current != null && current != Object.class; current = current.getSuperclass()) {
			hierarchy.add(current);
		}
		Collections.reverse(hierarchy);
		List<Method> methods = new ArrayList<>();
		for (Class<?> current : hierarchy) {
			for (Method method : current.getDeclaredMethods()) {
				if (method.getParameterCount() == 0
						&& MergedAnnotations.from(method).isPresent(POST_CONSTRUCT)) {
					ReflectionUtils.makeAccessible(method);
					methods.add(method);
				}
			}
		}
		return methods;
	}

}
