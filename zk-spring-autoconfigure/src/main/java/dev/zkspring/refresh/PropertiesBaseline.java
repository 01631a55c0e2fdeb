package dev.zkspring.refresh;

import java.lang.reflect.Constructor;
import java.util.Collection;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.core.CollectionFactory;
import org.springframework.util.ReflectionUtils;

/**
 * A {@code @ConfigurationProperties} bean as it was before Boot bound it: what its constructor and its
 * {@code @Bean} method set. Every rebind binds into a copy of it, as Boot bound into the original at
 * startup, so a key removed from ZooKeeper returns its property to that value (the {@code @Bean}
 * method's, else the field's default). The copy holds the bound properties only (those of
 * {@link PropertiesCopier}); collections and nested objects are copied, since Boot binds into them.
 */
final class PropertiesBaseline {

	private static final int MAX_DEPTH = 8;

	private final Object state;

	private PropertiesBaseline(Object state) {
		this.state = state;
	}

	/** The type's constructor without parameters, whatever its visibility, or {@code null}. */
	static @Nullable Constructor<?> constructor(Class<?> type) {
		try {
			return type.getDeclaredConstructor();
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
	}

	/** Copy a bean before it is bound; {@code null} when it cannot be copied (then a rebind starts from a new instance). */
	static @Nullable PropertiesBaseline capture(Object bean) {
		try {
			return new PropertiesBaseline(copy(bean, 0));
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	/** A new instance, of a type with a constructor without parameters, to bind into. */
	static Object newInstance(Class<?> type) {
		Constructor<?> constructor = constructor(type);
		if (constructor == null) {
			throw new IllegalStateException(type.getName() + " has no constructor without parameters");
		}
		return BeanUtils.instantiateClass(constructor);
	}

	/** A new copy of the baseline, for one bind. */
	Object copy() {
		return copy(this.state, 0);
	}

	private static Object copy(Object source, int depth) {
		Object target = newInstance(source.getClass());
		copyInto(source, target, depth);
		return target;
	}

	private static void copyInto(Object source, Object target, int depth) {
		for (PropertiesCopier.Accessor accessor : PropertiesCopier.accessors(source.getClass())) {
			Object value = PropertiesCopier.get(accessor.getter(), source);
			if (accessor.setter() != null) {
				ReflectionUtils.invokeMethod(accessor.setter(), target, duplicate(value, depth));
			}
			else if (accessor.field() != null) {
				accessor.field().setVolatile(target, duplicate(value, depth));
			}
			else if (value != null && !PropertiesCopier.simple(value.getClass())
					&& !PropertiesCopier.aggregate(value.getClass()) && depth < MAX_DEPTH) {
				// a getter-only nested object: Boot binds into the one the instance holds
				Object nested = PropertiesCopier.get(accessor.getter(), target);
				if (nested != null && nested != value) {
					copyInto(value, nested, depth + 1);
				}
			}
		}
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private static @Nullable Object duplicate(@Nullable Object value, int depth) {
		if (value == null || value.getClass().isArray()) {
			// Boot binds a new array: the old one is never written
			return value;
		}
		try {
			if (value instanceof Collection<?> collection) {
				Collection copy = CollectionFactory.createCollection(value.getClass(), collection.size());
				copy.addAll(collection);
				return copy;
			}
			if (value instanceof Map<?, ?> map) {
				Map copy = CollectionFactory.createMap(value.getClass(), map.size());
				copy.putAll(map);
				return copy;
			}
		}
		catch (RuntimeException ex) {
			// an unmodifiable collection cannot be refilled by Boot either: it binds a new one
			return value;
		}
		if (PropertiesCopier.simple(value.getClass()) || depth >= MAX_DEPTH || constructor(value.getClass()) == null
				|| PropertiesCopier.accessors(value.getClass()).isEmpty()) {
			// an opaque value (no bean properties) cannot be copied property by property: it is kept as it is
			return value;
		}
		return copy(value, depth + 1);
	}

}
