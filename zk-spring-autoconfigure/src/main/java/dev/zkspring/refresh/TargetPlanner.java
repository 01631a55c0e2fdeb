package dev.zkspring.refresh;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanInstantiationException;
import org.springframework.beans.TypeConverter;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.util.PlaceholderResolutionException;

import dev.zkspring.config.ZkConfigChangeRejectedException;

/**
 * Phase 1 for one set of sources: works out, for each recorded bean, which targets the sources
 * change, and prepares their writes (values resolved and converted, properties bound and validated)
 * without touching the bean. Each distinct expression is resolved once.
 */
final class TargetPlanner {

	private final ExpressionResolver resolver;

	private final PropertiesRebinder rebinder;

	private final Set<String> changed;

	private final TypeConverter converter;

	private final Map<String, Resolved> resolved = new HashMap<>();

	private final @Nullable ConfigurableEnvironment current;

	private @Nullable Binder binder;

	private @Nullable Binder currentBinder;

	/**
	 * Plan for the resolver's sources.
	 * @param current the Environment the beans were brought to last, whose bound values tell which
	 * properties a change alters; {@code null} when unknown (every property that differs is written)
	 */
	TargetPlanner(ExpressionResolver resolver, PropertiesRebinder rebinder, Set<String> changed,
			TypeConverter converter, @Nullable ConfigurableEnvironment current) {
		this.resolver = resolver;
		this.rebinder = rebinder;
		this.changed = changed;
		this.converter = converter;
		this.current = current;
	}

	/**
	 * Add the writes that bring a bean to the sources.
	 * @throws ZkConfigChangeRejectedException naming the key and the target when one cannot take them
	 */
	void plan(RecordedBean bean, Object instance, List<PendingWrite> writes) {
		int before = writes.size();
		List<ValueMember> members = bean.targets().members();
		for (int i = 0; i < members.size(); i++) {
			planValue(bean, instance, i, members.get(i), writes);
		}
		RecordedBean.Properties properties = bean.properties();
		// bound again whatever changed: a property may be derived from a key outside the prefix
		if (properties != null) {
			try {
				this.rebinder.plan(binder(), currentBinder(), properties, instance, bean.describeProperties(), writes);
			}
			catch (BeanInstantiationException ex) {
				throw new ZkConfigChangeRejectedException(properties.prefix(), bean.describeProperties(),
						"a fresh instance to bind could not be created (" + ex.getClass().getName() + ")", ex);
			}
		}
		if (writes.size() > before) {
			// derived state follows the fields it is computed from, as when the bean was created
			PendingWrite.Action callbacks = InitCallbacks.of(instance, bean.name(), this.rebinder.beanFactory());
			if (callbacks != null) {
				writes.add(new PendingWrite("bean '" + bean.name() + "' init callbacks", callbacks));
			}
		}
	}

	private void planValue(RecordedBean bean, Object instance, int index, ValueMember member,
			List<PendingWrite> writes) {
		@Nullable Object[] before = bean.raw(index);
		@Nullable Object[] after = new Object[before.length];
		boolean differs = false;
		for (int j = 0; j < after.length; j++) {
			String expression = member.expressions().get(j);
			Resolved value = resolve(expression);
			after[j] = value.value();
			if (value.failure() != null && before[j] != ExpressionResolver.UNRESOLVABLE) {
				throw new ZkConfigChangeRejectedException(keyFor(expression), bean.describe(member),
						reason(value.failure()), null);
			}
			differs |= !Objects.deepEquals(after[j], before[j]);
		}
		if (!differs) {
			return;
		}
		for (int j = 0; j < after.length; j++) {
			if (after[j] == ExpressionResolver.UNRESOLVABLE) {
				// another parameter of the method changed, and this one has no value to pass
				throw new ZkConfigChangeRejectedException(keyFor(member.expressions().get(j)), bean.describe(member),
						"parameter " + j + " resolves to no value", null);
			}
		}
		@Nullable Object[] converted = new Object[after.length];
		for (int j = 0; j < after.length; j++) {
			try {
				converted[j] = member.convert(this.converter, after[j], j);
			}
			catch (RuntimeException ex) {
				String key = keyFor(member.expressions().get(j));
				throw new ZkConfigChangeRejectedException(key, bean.describe(member), "the new value of " + key
						+ " cannot be converted to " + member.typeName(j) + " (" + ex.getClass().getName() + ")", ex);
			}
		}
		writes.add(new PendingWrite(bean.describe(member), () -> {
			member.write(instance, converted);
			bean.raw(index, after);
		}));
	}

	private Resolved resolve(String expression) {
		Resolved value = this.resolved.get(expression);
		if (value == null) {
			try {
				value = new Resolved(this.resolver.resolve(expression), null);
			}
			catch (RuntimeException ex) {
				value = new Resolved(ExpressionResolver.UNRESOLVABLE, ex);
			}
			this.resolved.put(expression, value);
		}
		return value;
	}

	/** The changed key an expression names, else the first key it names, else the first changed key. */
	private String keyFor(String expression) {
		Set<String> named = ExpressionResolver.placeholderKeys(expression);
		for (String key : named) {
			if (this.changed.contains(key)) {
				return key;
			}
		}
		return named.isEmpty() ? this.changed.iterator().next() : named.iterator().next();
	}

	private static String reason(RuntimeException failure) {
		if (failure instanceof PlaceholderResolutionException) {
			return "it resolves to no value: a placeholder it uses has no value in the new configuration (nor "
					+ "in any other property source) and no default";
		}
		return "its expression fails against the new configuration (" + failure.getClass().getName() + ")";
	}

	private Binder binder() {
		Binder binder = this.binder;
		if (binder == null) {
			binder = this.rebinder.binder(this.resolver.environment());
			this.binder = binder;
		}
		return binder;
	}

	private @Nullable Binder currentBinder() {
		if (this.current != null && this.currentBinder == null) {
			this.currentBinder = this.rebinder.binder(this.current);
		}
		return this.currentBinder;
	}

	/** An expression's value, or the failure resolving it. */
	private record Resolved(@Nullable Object value, @Nullable RuntimeException failure) {

	}

}
