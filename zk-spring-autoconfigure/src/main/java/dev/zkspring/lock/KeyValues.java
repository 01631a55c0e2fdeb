package dev.zkspring.lock;

import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;

import org.jspecify.annotations.Nullable;

import org.springframework.util.ReflectionUtils;

/**
 * Turns what a {@code @ZkLock} key expression evaluated to into the key, by content: values that are
 * equal give the same key. Arrays and lists render as a list's {@code toString} does ({@code [a, b]}),
 * sets and maps in sorted order (their iteration order can differ between equal ones); a value whose
 * class has no {@code toString()} of its own is refused, since its identity would be the key.
 */
final class KeyValues {

	private KeyValues() {
	}

	/**
	 * The key for a value.
	 * @throws IllegalArgumentException naming the type when the value cannot be keyed by content
	 */
	static String render(Object value) {
		return rendered(value);
	}

	private static String rendered(@Nullable Object value) {
		if (value == null || value instanceof CharSequence) {
			return String.valueOf(value);
		}
		if (value.getClass().isArray()) {
			List<String> elements = new ArrayList<>();
			for (int i = 0; i < Array.getLength(value); i++) {
				elements.add(rendered(Array.get(value, i)));
			}
			return joined(elements, "[", "]");
		}
		if (value instanceof Collection<?> collection) {
			List<String> elements = new ArrayList<>();
			collection.forEach((element) -> elements.add(rendered(element)));
			if (collection instanceof Set) {
				elements.sort(null);
			}
			return joined(elements, "[", "]");
		}
		if (value instanceof Map<?, ?> map) {
			List<String> entries = new ArrayList<>();
			map.forEach((key, entry) -> entries.add(rendered(key) + "=" + rendered(entry)));
			entries.sort(null);
			return joined(entries, "{", "}");
		}
		if (ReflectionUtils.findMethod(value.getClass(), "toString").getDeclaringClass() == Object.class) {
			throw new IllegalArgumentException("a " + value.getClass().getName() + ", which has no toString() of its "
					+ "own: its identity would be the key, so equal values would not exclude each other");
		}
		return value.toString();
	}

	private static String joined(List<String> elements, String prefix, String suffix) {
		StringJoiner joiner = new StringJoiner(", ", prefix, suffix);
		elements.forEach(joiner::add);
		return joiner.toString();
	}

}
