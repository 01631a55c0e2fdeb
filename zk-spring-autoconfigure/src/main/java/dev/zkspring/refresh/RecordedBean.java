package dev.zkspring.refresh;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
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
	 */
	record Properties(String prefix, ConfigurationProperties annotation, Bindable<Object> bindable) {

	}

}
