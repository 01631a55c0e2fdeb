package dev.zkspring.refresh;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.BeanInitializationException;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.ConfigurationPropertiesBean;
import org.springframework.boot.context.properties.bind.BindMethod;
import org.springframework.boot.context.properties.bind.Bindable;

/**
 * A {@link RefreshScope} bean as recorded: held weakly (a prototype the application dropped is
 * collected and forgotten), with its {@code @Value} members, the raw value each expression resolved
 * to when last written, and its {@code @ConfigurationProperties} binding if it has one. The raw values
 * are read and written under the recorder's commit lock only.
 */
final class RecordedBean extends WeakReference<Object> {

	private final String name;

	private final ClassTargets targets;

	private final @Nullable Object[][] raw;

	private final @Nullable Properties properties;

	private final long sequence;

	RecordedBean(Object bean, ReferenceQueue<Object> queue, String name, ClassTargets targets,
			@Nullable Object[][] raw, @Nullable Properties properties, long sequence) {
		super(bean, queue);
		this.name = name;
		this.targets = targets;
		this.raw = raw;
		this.properties = properties;
		this.sequence = sequence;
	}

	String name() {
		return this.name;
	}

	ClassTargets targets() {
		return this.targets;
	}

	/** The raw values of a member's expressions as last written. */
	@Nullable Object[] raw(int member) {
		return this.raw[member];
	}

	void raw(int member, @Nullable Object[] values) {
		this.raw[member] = values;
	}

	@Nullable Properties properties() {
		return this.properties;
	}

	long sequence() {
		return this.sequence;
	}

	String describe(ValueMember member) {
		return "bean '" + this.name + "' " + member.describe();
	}

	String describeProperties() {
		return "bean '" + this.name + "' (@ConfigurationProperties '"
				+ ((this.properties != null) ? this.properties.prefix() : "") + "')";
	}

	/**
	 * How the bean's {@code @ConfigurationProperties} are bound.
	 * @param prefix the prefix, as written
	 * @param annotation the annotation, for its ignore-invalid and ignore-unknown settings
	 * @param bindable the bind target without an instance: the type and its annotations
	 * @param baseline the bean as it was before Boot bound it, or {@code null} when it could not be copied
	 */
	record Properties(String prefix, ConfigurationProperties annotation, Bindable<Object> bindable,
			@Nullable PropertiesBaseline baseline) {

		/**
		 * How a bean's {@code @ConfigurationProperties} are rebound, or {@code null} when it has none or they
		 * cannot be (then {@code unrefreshable} says why).
		 * @throws BeanInitializationException when rebinding it would let readers see a collection half refilled
		 */
		static @Nullable Properties of(@Nullable ConfigurationPropertiesBean properties, Object bean, String beanName,
				List<String> unrefreshable, @Nullable PropertiesBaseline baseline) {
			if (properties == null) {
				return null;
			}
			Bindable<?> target = properties.asBindTarget();
			if (target.getBindMethod() == BindMethod.VALUE_OBJECT) {
				unrefreshable.add("its @ConfigurationProperties (bound through its constructor)");
				return null;
			}
			if (PropertiesBaseline.constructor(bean.getClass()) == null) {
				unrefreshable.add("its @ConfigurationProperties (no constructor without parameters to bind a fresh copy)");
				return null;
			}
			List<String> unsafe = PropertiesCopier.unsafe(bean.getClass());
			if (!unsafe.isEmpty()) {
				throw new BeanInitializationException("@RefreshScope @ConfigurationProperties bean '" + beanName + "' ("
						+ bean.getClass().getName() + ") cannot be rebound safely: " + String.join(", ", unsafe)
						+ ". Refilling such a collection in place lets other threads see it empty or half filled. Add a "
						+ "setter for it (the refresh then replaces it by reference), or make its field non-final.");
			}
			@SuppressWarnings("unchecked")
			Bindable<Object> bindable = (Bindable<Object>) Bindable.of(target.getType())
				.withAnnotations(target.getAnnotations());
			return new Properties(properties.getAnnotation().prefix(), properties.getAnnotation(), bindable, baseline);
		}

		/** A fresh instance to bind into: a copy of the baseline, else a new instance of the bean's class. */
		Object instanceToBind(Object bean) {
			return (this.baseline != null) ? this.baseline.copy() : PropertiesBaseline.newInstance(bean.getClass());
		}

	}

}
