package dev.zkspring.refresh;

import java.lang.ref.ReferenceQueue;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.ConfigurationPropertiesBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;

/**
 * Records every {@link RefreshScope} bean as it is created (singleton or not), with the raw value
 * of each of its {@code @Value} expressions, and warns once per bean about what cannot be refreshed.
 * Public so the auto-configuration can register it; it owns the lock that makes a refresh atomic.
 */
public final class RefreshTargetRecorder implements InstantiationAwareBeanPostProcessor, ApplicationContextAware,
		Ordered {

	private static final Log logger = LogFactory.getLog(RefreshTargetRecorder.class);

	private final ReentrantLock commitLock = new ReentrantLock();

	private final ConsistentReads reads = new ConsistentReads();

	private final List<RecordedBean> beans = new ArrayList<>();

	private final ReferenceQueue<Object> collected = new ReferenceQueue<>();

	private final Map<Object, Long> instantiatedAt = Collections.synchronizedMap(new IdentityHashMap<>());

	private final Map<Object, PropertiesBaseline> baselines = Collections.synchronizedMap(new IdentityHashMap<>());

	private final Set<String> warned = ConcurrentHashMap.newKeySet();

	private long sequence;

	private volatile long generation;

	private @Nullable ConfigurableApplicationContext context;

	/** Create the recorder; the auto-configuration registers it. */
	public RefreshTargetRecorder() {
	}

	@Override
	public void setApplicationContext(ApplicationContext applicationContext) throws BeansException {
		this.context = (ConfigurableApplicationContext) applicationContext;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 100;
	}

	@Override
	public boolean postProcessAfterInstantiation(Object bean, String beanName) {
		if (refreshScoped(bean, beanName)) {
			this.instantiatedAt.put(bean, this.generation);
			if (ConfigurationPropertiesBean.get(context(), bean, beanName) != null
					&& PropertiesBaseline.constructor(bean.getClass()) != null) {
				// before Boot binds it: what its @Bean method or constructor set is what a removed key returns to
				PropertiesBaseline baseline = PropertiesBaseline.capture(bean);
				if (baseline != null) {
					this.baselines.put(bean, baseline);
				}
			}
		}
		return true;
	}

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		Long instantiated = this.instantiatedAt.remove(bean);
		PropertiesBaseline baseline = this.baselines.remove(bean);
		if (instantiated != null) {
			record(bean, beanName, instantiated, baseline);
		}
		else if (bean.getClass().isRecord() && refreshScoped(bean, beanName)) {
			// the bean factory skips populating records, and with it the instantiation callback
			record(bean, beanName, this.generation, null);
		}
		return bean;
	}

	/** The reads that see no refresh half-applied, for the auto-configuration to expose as a bean. */
	public ConsistentReads consistentReads() {
		return this.reads;
	}

	ConfigurableApplicationContext context() {
		return Objects.requireNonNull(this.context, "no application context");
	}

	/** Resolves expressions against the application's Environment, as the bean factory injects. */
	ExpressionResolver liveResolver() {
		return ExpressionResolver.live(context().getBeanFactory(), context().getEnvironment());
	}

	/** Run under the commit lock, which registrations also take. */
	<T> T locked(Supplier<T> action) {
		this.commitLock.lock();
		try {
			return action.get();
		}
		finally {
			this.commitLock.unlock();
		}
	}

	/** The recorded beans still alive and registered after a sequence number; call under the lock. */
	List<RecordedBean> recordedAfter(long sequence) {
		purge();
		return this.beans.stream().filter((bean) -> bean.sequence() > sequence && bean.get() != null).toList();
	}

	/** The last sequence number handed out; call under the lock. */
	long lastSequence() {
		return this.sequence;
	}

	/** Run a refresh's writes under the commit lock and the consistent-read lock. */
	void commit(Runnable writes) {
		locked(() -> {
			this.reads.write(() -> {
				writes.run();
				this.generation++;
			});
			return null;
		});
	}

	int size() {
		return locked(() -> {
			purge();
			return this.beans.size();
		});
	}

	private boolean refreshScoped(Object bean, String beanName) {
		if (AnnotatedElementUtils.hasAnnotation(ClassUtils.getUserClass(bean), RefreshScope.class)) {
			return true;
		}
		Method factoryMethod = factoryMethod(beanName);
		return factoryMethod != null && AnnotatedElementUtils.hasAnnotation(factoryMethod, RefreshScope.class);
	}

	private @Nullable Method factoryMethod(String beanName) {
		ConfigurableListableBeanFactory beanFactory = context().getBeanFactory();
		if (!beanFactory.containsBeanDefinition(beanName)) {
			return null;
		}
		BeanDefinition definition = beanFactory.getMergedBeanDefinition(beanName);
		return (definition instanceof RootBeanDefinition root) ? root.getResolvedFactoryMethod() : null;
	}

	private void record(Object bean, String beanName, long instantiated, @Nullable PropertiesBaseline baseline) {
		Class<?> type = ClassUtils.getUserClass(bean);
		ClassTargets targets = ClassTargets.of(type);
		List<String> unrefreshable = new ArrayList<>(targets.unrefreshable());
		Method factoryMethod = factoryMethod(beanName);
		if (factoryMethod != null) {
			unrefreshable.addAll(ClassTargets.factoryMethodValues(factoryMethod));
		}
		RecordedBean.Properties properties = RecordedBean.Properties.of(ConfigurationPropertiesBean.get(context(), bean,
				beanName), bean, beanName, unrefreshable, baseline);
		if (!unrefreshable.isEmpty() && this.warned.add(beanName)) {
			logger.warn("@RefreshScope bean '" + beanName + "' (" + type.getName() + ") cannot refresh "
					+ String.join(", ", unrefreshable) + ": these keep the values the bean was created with. Inject "
					+ "through non-final fields or setters, or bind a JavaBean-style @ConfigurationProperties class.");
		}
		if (targets.members().isEmpty() && properties == null) {
			return;
		}
		locked(() -> {
			ExpressionResolver resolver = liveResolver();
			@Nullable Object[][] raw = new Object[targets.members().size()][];
			for (int i = 0; i < raw.length; i++) {
				raw[i] = resolve(resolver, targets.members().get(i));
			}
			RecordedBean recorded = new RecordedBean(bean, this.collected, beanName, targets, raw, properties,
					++this.sequence);
			if (instantiated != this.generation) {
				// a refresh was applied between injection and now: the injected values may be the old ones
				rewrite(bean, recorded);
			}
			purge();
			this.beans.add(recorded);
			return null;
		});
	}

	private static @Nullable Object[] resolve(ExpressionResolver resolver, ValueMember member) {
		@Nullable Object[] values = new Object[member.expressions().size()];
		for (int j = 0; j < values.length; j++) {
			values[j] = resolver.resolveOrMark(member.expressions().get(j));
		}
		return values;
	}

	private void rewrite(Object bean, RecordedBean recorded) {
		for (int i = 0; i < recorded.targets().members().size(); i++) {
			ValueMember member = recorded.targets().members().get(i);
			try {
				member.write(bean, member.convert(context().getBeanFactory().getTypeConverter(), recorded.raw(i)));
			}
			catch (Throwable ex) {
				logger.warn("Could not bring " + recorded.describe(member) + ", created during a refresh, up to date ("
						+ ex.getClass().getName() + ")");
			}
		}
	}

	private void purge() {
		if (this.collected.poll() != null) {
			while (this.collected.poll() != null) {
				// drain
			}
			this.beans.removeIf((bean) -> bean.get() == null);
		}
	}

}
