package dev.zkspring.refresh;

import java.beans.PropertyDescriptor;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanUtils;
import org.springframework.util.ConcurrentReferenceHashMap;
import org.springframework.util.ReflectionUtils;

/**
 * Plans bringing a {@code @ConfigurationProperties} bean in place to a freshly bound instance, touching
 * only what Boot's binder owns and only where the sources changed: a JavaBean property is written when
 * its value bound from the old sources differs from its value bound from the new ones (so what the
 * application set itself, and what a change leaves alone, stays), through its setter. A property with a
 * getter only is bound into (a nested object, recursively) or, for a collection, map or array, replaced
 * by reference through its non-final field of the same name. Nothing else is read or written: fields
 * without accessors, init-computed state and final helpers are left alone. Accessors are looked up once
 * per class. A value of a type that declares {@code equals}, or has no bean properties, is compared
 * with its {@code equals} alone.
 */
final class PropertiesCopier {

	private static final int MAX_DEPTH = 8;

	private static final Map<Class<?>, List<Accessor>> cache = new ConcurrentReferenceHashMap<>();

	private PropertiesCopier() {
	}

	/**
	 * Add to {@code writes} what brings the bound properties of {@code current} whose value differs
	 * between {@code before} and {@code after} to their value in {@code after}.
	 * @param current the bean
	 * @param before a fresh instance bound from the sources in force (or the bean itself when unknown)
	 * @param after a fresh instance bound from the new sources
	 * @throws IllegalStateException naming the property when it cannot take the new value safely
	 */
	static void plan(Object current, Object before, Object after, String target, List<PendingWrite> writes) {
		plan(current, before, after, target, "", writes, 0);
	}

	/**
	 * Why a rebind of instances of a type cannot be done without readers seeing a partial value: a
	 * collection, map or array property with a getter only, whose field is final (or absent).
	 * @return one description per such property, or an empty list
	 */
	static List<String> unsafe(Class<?> type) {
		List<String> problems = new ArrayList<>();
		unsafe(type, "", problems, 0);
		return problems;
	}

	private static void unsafe(Class<?> type, String path, List<String> problems, int depth) {
		for (Accessor accessor : accessors(type)) {
			if (accessor.setter() != null) {
				continue;
			}
			Class<?> propertyType = accessor.getter().getReturnType();
			if (aggregate(propertyType)) {
				if (accessor.field() == null) {
					problems.add("property '" + path + accessor.name() + "' (a " + propertyType.getSimpleName()
							+ " with a getter only and a final or differently named field)");
				}
			}
			else if (!simple(propertyType) && depth < MAX_DEPTH) {
				unsafe(propertyType, path + accessor.name() + ".", problems, depth + 1);
			}
		}
	}

	private static void plan(Object current, Object old, Object fresh, String target, String path,
			List<PendingWrite> writes, int depth) {
		for (Accessor accessor : accessors(current.getClass())) {
			Object after = get(accessor.getter(), fresh);
			if (old != current && same(get(accessor.getter(), old), after, depth)) {
				// its sources did not change: the bean keeps what it has, whoever set it
				continue;
			}
			Object before = get(accessor.getter(), current);
			if (same(before, after, depth)) {
				continue;
			}
			String property = path + accessor.name();
			String description = target + " property '" + property + "'";
			Method setter = accessor.setter();
			VarHandle field = accessor.field();
			if (setter != null) {
				writes.add(new PendingWrite(description, () -> setter.invoke(current, after)));
			}
			else if (aggregate(accessor.getter().getReturnType())) {
				if (field == null) {
					throw new IllegalStateException(property);
				}
				// a reader sees the old collection or the new one, never one being refilled
				writes.add(new PendingWrite(description, () -> field.setVolatile(current, after)));
			}
			else if (before != null && after != null && !simple(before.getClass()) && depth < MAX_DEPTH) {
				// Boot binds a getter-only nested object in place: so do we, property by property
				Object oldNested = (old != current) ? get(accessor.getter(), old) : null;
				plan(before, (oldNested != null) ? oldNested : before, after, target, property + ".", writes, depth + 1);
			}
			// a simple value with a getter only is not bound by Boot: not ours to write
		}
	}

	/** Whether two values hold the same state, comparing nested objects property by property. */
	private static boolean same(@Nullable Object a, @Nullable Object b, int depth) {
		if (Objects.deepEquals(a, b)) {
			return true;
		}
		if (a == null || b == null || a.getClass() != b.getClass() || depth >= MAX_DEPTH) {
			return false;
		}
		if (a instanceof Collection<?> left && b instanceof Collection<?> right) {
			if (left.size() != right.size()) {
				return false;
			}
			Iterator<?> others = right.iterator();
			return left.stream().allMatch((element) -> same(element, others.next(), depth + 1));
		}
		if (a instanceof Map<?, ?> left && b instanceof Map<?, ?> right) {
			return left.size() == right.size() && left.entrySet()
				.stream()
				.allMatch((entry) -> right.containsKey(entry.getKey())
						&& same(entry.getValue(), right.get(entry.getKey()), depth + 1));
		}
		if (simple(a.getClass()) || valueType(a.getClass())) {
			// its equals has spoken: a value object is never compared by what its getters happen to show
			return false;
		}
		return accessors(a.getClass()).stream()
			.allMatch((accessor) -> same(get(accessor.getter(), a), get(accessor.getter(), b), depth + 1));
	}

	static @Nullable Object get(Method getter, Object instance) {
		return ReflectionUtils.invokeMethod(getter, instance);
	}

	/**
	 * Whether instances of a type are values that only their {@code equals} can compare: it declares
	 * one of its own, or it has no bean properties to compare (an opaque value object such as a
	 * {@code Money} with private fields, made by a converter).
	 */
	static boolean valueType(Class<?> type) {
		Method equals = ReflectionUtils.findMethod(type, "equals", Object.class);
		return (equals != null && equals.getDeclaringClass() != Object.class) || accessors(type).isEmpty();
	}

	static boolean aggregate(Class<?> type) {
		return Collection.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type) || type.isArray();
	}

	static boolean simple(Class<?> type) {
		return BeanUtils.isSimpleValueType(type) || type.isArray() || type.getName().startsWith("java.");
	}

	static List<Accessor> accessors(Class<?> type) {
		return cache.computeIfAbsent(type, PropertiesCopier::introspect);
	}

	private static List<Accessor> introspect(Class<?> type) {
		List<Accessor> accessors = new ArrayList<>();
		for (PropertyDescriptor descriptor : BeanUtils.getPropertyDescriptors(type)) {
			Method getter = descriptor.getReadMethod();
			if (getter == null || getter.getDeclaringClass() == Object.class) {
				continue;
			}
			Method setter = descriptor.getWriteMethod();
			ReflectionUtils.makeAccessible(getter);
			if (setter != null) {
				ReflectionUtils.makeAccessible(setter);
			}
			accessors.add(new Accessor(descriptor.getName(), getter, setter,
					(setter != null) ? null : replaceableField(type, descriptor)));
		}
		return List.copyOf(accessors);
	}

	/** The non-final field behind a getter-only aggregate property, which can be replaced by reference. */
	private static @Nullable VarHandle replaceableField(Class<?> type, PropertyDescriptor descriptor) {
		Field field = ReflectionUtils.findField(type, descriptor.getName());
		if (field == null || Modifier.isFinal(field.getModifiers()) || Modifier.isStatic(field.getModifiers())
				|| !field.getType().isAssignableFrom(descriptor.getPropertyType())) {
			return null;
		}
		try {
			return MethodHandles.privateLookupIn(field.getDeclaringClass(), MethodHandles.lookup())
				.unreflectVarHandle(field);
		}
		catch (IllegalAccessException ex) {
			return null;
		}
	}

	/** A bound property: its getter, its setter if any, else the field that may be replaced. */
	record Accessor(String name, Method getter, @Nullable Method setter, @Nullable VarHandle field) {

	}

}
