package dev.zkspring.refresh;

import java.lang.ref.WeakReference;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.zkspring.config.ZkConfigChange;

/**
 * Finds {@link ZkConfigListener} methods on every bean and calls them after each applied change
 * whose keys they match. A method with a signature it cannot call fails the startup, naming it.
 * Public so the auto-configuration can register it.
 */
public final class ZkConfigListenerMethods implements BeanPostProcessor, ApplicationContextAware {

	private static final Log logger = LogFactory.getLog(ZkConfigListenerMethods.class);

	private final List<Listener> listeners = new CopyOnWriteArrayList<>();

	/** Create the processor; the auto-configuration registers it. */
	public ZkConfigListenerMethods() {
	}

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		Class<?> type = ClassUtils.getUserClass(bean);
		if (!AnnotationUtils.isCandidateClass(type, ZkConfigListener.class)) {
			return bean;
		}
		Map<Method, ZkConfigListener> methods = MethodIntrospector.selectMethods(type,
				(MethodIntrospector.MetadataLookup<ZkConfigListener>) (method) -> AnnotatedElementUtils
					.findMergedAnnotation(method, ZkConfigListener.class));
		methods.forEach((method, annotation) -> {
			Kind kind = kind(method, beanName);
			Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
			ReflectionUtils.makeAccessible(invocable);
			this.listeners.add(new Listener(new WeakReference<>(bean), beanName, invocable, kind,
					names(annotation.keys(), method, beanName), names(annotation.prefixes(), method, beanName)));
		});
		return bean;
	}

	@Override
	public void setApplicationContext(ApplicationContext applicationContext) {
		if (applicationContext instanceof ConfigurableApplicationContext context) {
			context.addApplicationListener(new Dispatcher());
		}
	}

	private void dispatch(ZkRefreshedEvent event) {
		this.listeners.removeIf((listener) -> listener.bean().get() == null);
		for (Listener listener : this.listeners) {
			List<ZkConfigChange> matching = event.getChanges().stream().filter(listener::matches).toList();
			Object bean = listener.bean().get();
			if (!matching.isEmpty() && bean != null) {
				invoke(listener, bean, event, matching);
			}
		}
	}

	private static void invoke(Listener listener, Object bean, ZkRefreshedEvent event, List<ZkConfigChange> matching) {
		try {
			switch (listener.kind()) {
				case NONE -> listener.method().invoke(bean);
				case CHANGES -> listener.method().invoke(bean, matching);
				case EVENT -> listener.method().invoke(bean, event);
			}
		}
		catch (InvocationTargetException | IllegalAccessException ex) {
			Throwable cause = (ex instanceof InvocationTargetException invocation) ? invocation.getTargetException() : ex;
			logger.warn("@ZkConfigListener method '" + listener.method().getName() + "' of bean '" + listener.beanName()
					+ "' failed (" + cause.getClass().getName() + "); the change stays applied", cause);
		}
	}

	private static List<ConfigurationPropertyName> names(String[] keys, Method method, String beanName) {
		List<ConfigurationPropertyName> names = new ArrayList<>();
		for (String key : keys) {
			ConfigurationPropertyName name = name(key);
			if (name == null) {
				throw new BeanInitializationException("@ZkConfigListener method '" + method.getName() + "' of bean '"
						+ beanName + "' names '" + key + "', which is not a property name; write it as in "
						+ "application.properties, such as shop.max-items or shop.items[0]");
			}
			names.add(name);
		}
		return List.copyOf(names);
	}

	private static @Nullable ConfigurationPropertyName name(String key) {
		try {
			ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
			return name.isEmpty() ? null : name;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	private static Kind kind(Method method, String beanName) {
		Type[] parameters = method.getGenericParameterTypes();
		if (parameters.length == 0) {
			return Kind.NONE;
		}
		if (parameters.length == 1 && parameters[0] == ZkRefreshedEvent.class) {
			return Kind.EVENT;
		}
		if (parameters.length == 1 && parameters[0] instanceof ParameterizedType list
				&& list.getRawType() == List.class && list.getActualTypeArguments()[0] == ZkConfigChange.class) {
			return Kind.CHANGES;
		}
		throw new BeanInitializationException("@ZkConfigListener method '" + method.getName() + "' of bean '"
				+ beanName + "' takes " + List.of(parameters) + ", which cannot be passed; declare no parameter, a "
				+ "List<ZkConfigChange> or a ZkRefreshedEvent");
	}

	/**
	 * Calls the methods after each refresh, before the application's own listeners of the event, so one
	 * of those that throws cannot keep them from it. Apart from the processor, which stays unordered so
	 * that it sees the beans as the other post-processors (proxies) left them.
	 */
	private final class Dispatcher implements ApplicationListener<ZkRefreshedEvent>, PriorityOrdered {

		@Override
		public void onApplicationEvent(ZkRefreshedEvent event) {
			dispatch(event);
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

	}

	/** What a listener method takes. */
	private enum Kind {

		NONE, CHANGES, EVENT

	}

	/** One listener method of one bean; keys and prefixes match by Boot's canonical (relaxed) names. */
	private record Listener(WeakReference<Object> bean, String beanName, Method method, Kind kind,
			List<ConfigurationPropertyName> keys, List<ConfigurationPropertyName> prefixes) {

		boolean matches(ZkConfigChange change) {
			if (this.keys.isEmpty() && this.prefixes.isEmpty()) {
				return true;
			}
			ConfigurationPropertyName key = name(change.key());
			if (key == null) {
				return false;
			}
			ConfigurationPropertyName dotted = dissolved(key);
			return matches(key) || (dotted != null && matches(dotted));
		}

		private boolean matches(ConfigurationPropertyName key) {
			for (ConfigurationPropertyName exact : this.keys) {
				if (exact.equals(key)) {
					return true;
				}
			}
			for (ConfigurationPropertyName prefix : this.prefixes) {
				if (prefix.equals(key) || prefix.isAncestorOf(key)) {
					return true;
				}
			}
			return false;
		}

		/**
		 * A nested JSON member name with dots is one map key ({@code logging.level[com.example]}); a
		 * listener may name it as a path ({@code logging.level.com.example}), as in a properties file.
		 */
		private static @Nullable ConfigurationPropertyName dissolved(ConfigurationPropertyName key) {
			StringBuilder path = new StringBuilder();
			boolean dots = false;
			for (int i = 0; i < key.getNumberOfElements(); i++) {
				String element = key.getElement(i, ConfigurationPropertyName.Form.ORIGINAL);
				if (key.isNumericIndex(i)) {
					path.append('[').append(element).append(']');
					continue;
				}
				dots |= element.indexOf('.') >= 0;
				path.append((i > 0) ? "." : "").append(element);
			}
			return dots ? name(path.toString()) : null;
		}

	}

}
