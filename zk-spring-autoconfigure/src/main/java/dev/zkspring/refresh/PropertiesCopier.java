package dev.zkspring.refresh;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.reflect.Field;
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
 * Plans copying a freshly bound {@code @ConfigurationProperties} instance over the bean in place,
 * field by field, writing only fields whose state differs (nested objects compared field by field).
 * A non-final field takes the fresh value (a nested object is replaced as a whole); a final
 * collection or map is refilled; a final nested object is copied into recursively. Handles are
 * looked up once per class.
 */
final class PropertiesCopier {

	private static final int MAX_DEPTH = 8;

	private static final Map<Class<?>, List<FieldHandle>> cache = new ConcurrentReferenceHashMap<>();

	private PropertiesCopier() {
	}

	/**
	 * Add to {@code writes} what makes {@code current} equal to {@code fresh}.
	 * @throws IllegalStateException naming the property when a final field cannot take the new value
	 */
	static void plan(Object current, Object fresh, String target, String path, List<PendingWrite> writes) {
		plan(current, fresh, target, path, writes, 0);
	}

	/** Why instances of a type cannot be fully rebound in place, or an empty list. */
	static List<String> unrefreshable(Class<?> type) {
		List<String> problems = new ArrayList<>();
		for (FieldHandle field : fields(type)) {
			Class<?> fieldType = field.field().getType();
			if (field.isFinal() && !Collection.class.isAssignableFrom(fieldType) && !Map.class.isAssignableFrom(fieldType)
					&& simple(fieldType)) {
				problems.add("final field '" + field.field().getName() + "'");
			}
		}
		return problems;
	}

	private static void plan(Object current, Object fresh, String target, String path, List<PendingWrite> writes,
			int depth) {
		for (FieldHandle field : fields(current.getClass())) {
			Object before = field.handle().get(current);
			Object after = field.handle().get(fresh);
			if (same(before, after, depth)) {
				continue;
			}
			String property = path + field.field().getName();
			if (!field.isFinal()) {
				writes.add(new PendingWrite(target + " property '" + property + "'",
						() -> field.handle().setVolatile(current, after)));
			}
			else if (before instanceof Collection<?> old && after instanceof Collection<?> replacement && mutable(old)) {
				@SuppressWarnings("unchecked")
				Collection<Object> refill = (Collection<Object>) old;
				writes.add(new PendingWrite(target + " property '" + property + "'", () -> {
					refill.clear();
					refill.addAll(replacement);
				}));
			}
			else if (before instanceof Map<?, ?> old && after instanceof Map<?, ?> replacement && mutable(old)) {
				@SuppressWarnings("unchecked")
				Map<Object, Object> refill = (Map<Object, Object>) old;
				writes.add(new PendingWrite(target + " property '" + property + "'", () -> {
					refill.clear();
					refill.putAll(replacement);
				}));
			}
			else if (before != null && after != null && before.getClass() == after.getClass()
					&& !simple(before.getClass()) && depth < MAX_DEPTH) {
				plan(before, after, target, property + ".", writes, depth + 1);
			}
			else {
				throw new IllegalStateException(property);
			}
		}
	}

	/** Whether two values hold the same state, comparing nested objects field by field. */
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
		if (simple(a.getClass())) {
			return false;
		}
		return fields(a.getClass()).stream()
			.allMatch((field) -> same(field.handle().get(a), field.handle().get(b), depth + 1));
	}

	private static boolean mutable(Collection<?> collection) {
		try {
			collection.addAll(List.of());
			return !collection.getClass().getName().startsWith("java.util.ImmutableCollections");
		}
		catch (UnsupportedOperationException ex) {
			return false;
		}
	}

	private static boolean mutable(Map<?, ?> map) {
		try {
			map.putAll(Map.of());
			return !map.getClass().getName().startsWith("java.util.ImmutableCollections");
		}
		catch (UnsupportedOperationException ex) {
			return false;
		}
	}

	private static boolean simple(Class<?> type) {
		return BeanUtils.isSimpleValueType(type) || type.isArray() || type.getName().startsWith("java.");
	}

	private static List<FieldHandle> fields(Class<?> type) {
		return cache.computeIfAbsent(type, PropertiesCopier::introspect);
	}

	private static List<FieldHandle> introspect(Class<?> type) {
		List<FieldHandle> fields = new ArrayList<>();
		ReflectionUtils.doWithFields(type, (field) -> {
			try {
				VarHandle handle = MethodHandles.privateLookupIn(field.getDeclaringClass(), MethodHandles.lookup())
					.unreflectVarHandle(field);
				fields.add(new FieldHandle(field, handle));
			}
			catch (IllegalAccessException ex) {
				throw new IllegalStateException("Cannot access " + field, ex);
			}
		}, (field) -> !Modifier.isStatic(field.getModifiers()) && !field.isSynthetic());
		return List.copyOf(fields);
	}

	/** A field and its handle. */
	private record FieldHandle(Field field, VarHandle handle) {

		boolean isFinal() {
			return Modifier.isFinal(this.field.getModifiers());
		}

	}

}
