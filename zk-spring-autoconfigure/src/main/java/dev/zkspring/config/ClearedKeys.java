package dev.zkspring.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * The keys a ZooKeeper document sets to an empty value ({@code []}, {@code {}} or {@code ""}): every
 * key below them in a lower source is hidden, so an empty map or list clears a lower source's entries
 * for the Binder and for {@code Environment.getProperty} alike (Boot's binder alone merges maps across
 * sources).
 */
final class ClearedKeys {

	static final ClearedKeys NONE = new ClearedKeys(Set.of());

	private final Set<ConfigurationPropertyName> names;

	/** Decisions for the keys of the sources this hides in, so a lookup adapts each name once. */
	private final Map<String, Boolean> hidden = new ConcurrentHashMap<>();

	private ClearedKeys(Set<ConfigurationPropertyName> names) {
		this.names = names;
	}

	/** The given keys (empty-valued keys, and keys set to an empty map). */
	static ClearedKeys of(Collection<String> keys) {
		Set<ConfigurationPropertyName> names = new LinkedHashSet<>();
		keys.forEach((key) -> {
			ConfigurationPropertyName name = name(key);
			if (name != null) {
				names.add(name);
			}
		});
		return names.isEmpty() ? NONE : new ClearedKeys(Set.copyOf(names));
	}

	boolean isEmpty() {
		return this.names.isEmpty();
	}

	/** Whether a key lies below a cleared key (the cleared key itself is not hidden). */
	boolean hides(String key) {
		if (this.names.isEmpty()) {
			return false;
		}
		return this.hidden.computeIfAbsent(key, (candidate) -> {
			ConfigurationPropertyName name = name(candidate);
			if (name == null) {
				return false;
			}
			for (ConfigurationPropertyName cleared : this.names) {
				if (cleared.isAncestorOf(name)) {
					return true;
				}
			}
			return false;
		});
	}

	boolean hidesAny(EnumerablePropertySource<?> source) {
		for (String key : source.getPropertyNames()) {
			if (hides(key)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Hide what lies below these keys in every source after {@code above} (the sources it outranks),
	 * and show again what an earlier call hid that is no longer cleared.
	 */
	void hideBelow(MutablePropertySources sources, String above) {
		boolean below = false;
		List<PropertySource<?>> all = new ArrayList<>();
		sources.forEach(all::add);
		for (PropertySource<?> source : all) {
			if (!below) {
				below = source.getName().equals(above);
				continue;
			}
			PropertySource<?> plain = (source instanceof MaskedPropertySource masked) ? masked.delegate() : source;
			PropertySource<?> wanted = plain;
			if (plain instanceof EnumerablePropertySource<?> enumerable && !isEmpty() && hidesAny(enumerable)) {
				// a copy gets a mask of its own: one that follows the source in force would change with it
				wanted = (source instanceof MaskedPropertySource masked && masked.isFixed()
						&& masked.cleared().equals(this)) ? source : new MaskedPropertySource(enumerable, this);
			}
			if (wanted != source) {
				sources.replace(source.getName(), wanted);
			}
		}
	}

	static @Nullable ConfigurationPropertyName name(String key) {
		try {
			ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
			return name.isEmpty() ? null : name;
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	@Override
	public boolean equals(Object other) {
		return (other instanceof ClearedKeys keys) && this.names.equals(keys.names);
	}

	@Override
	public int hashCode() {
		return this.names.hashCode();
	}

	@Override
	public String toString() {
		return "ClearedKeys" + this.names;
	}

}
