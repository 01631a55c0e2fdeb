package dev.zkspring.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

/**
 * The config center's one source in the Environment; a key's origin is that of the source it wins in.
 * A key a higher context clears with an empty value hides what lies below it in the lower contexts.
 */
final class ZkConfigPropertySource extends CompositePropertySource implements OriginLookup<String> {

	/** For each source, what the sources above it cleared. */
	private final List<ClearedKeys> clearedAbove = new ArrayList<>();

	/** What this whole source clears in the sources below it. */
	private final ClearedKeys cleared;

	private final List<String> clearedMapKeys;

	ZkConfigPropertySource(List<PropertySource<?>> sources) {
		super(ZkConfigInitializer.PROPERTY_SOURCE_NAME);
		Set<String> visible = new HashSet<>();
		Set<String> clearing = new LinkedHashSet<>();
		for (PropertySource<?> source : sources) {
			addPropertySource(source);
			ClearedKeys above = ClearedKeys.of(clearing);
			this.clearedAbove.add(above);
			if (source instanceof ZnodePropertySource znode) {
				znode.getClearedMaps().stream().filter((key) -> !above.hides(key)).forEach(clearing::add);
			}
			if (source instanceof EnumerablePropertySource<?> enumerable) {
				for (String name : enumerable.getPropertyNames()) {
					if (!above.hides(name) && visible.add(name) && "".equals(enumerable.getProperty(name))) {
						// an empty value ([] or "") clears what lies below it as well
						clearing.add(name);
					}
				}
			}
		}
		this.cleared = ClearedKeys.of(clearing);
		this.clearedMapKeys = clearing.stream().filter((key) -> !visible.contains(key)).toList();
	}

	/** The keys set to an empty map, which are not properties themselves (a change still names them). */
	List<String> clearedMapKeys() {
		return this.clearedMapKeys;
	}

	ClearedKeys cleared() {
		return this.cleared;
	}

	@Override
	public @Nullable Object getProperty(String name) {
		int index = 0;
		for (PropertySource<?> source : getPropertySources()) {
			// the source is asked first: only its own keys are judged, so the decisions stay bounded
			Object value = source.getProperty(name);
			if (value != null && !this.clearedAbove.get(index).hides(name)) {
				return value;
			}
			index++;
		}
		return null;
	}

	@Override
	public boolean containsProperty(String name) {
		return winner(name) != null;
	}

	@Override
	public String[] getPropertyNames() {
		Set<String> names = new LinkedHashSet<>();
		int index = 0;
		for (PropertySource<?> source : getPropertySources()) {
			ClearedKeys above = this.clearedAbove.get(index++);
			if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
				throw new IllegalStateException(
						"Failed to enumerate property names due to non-enumerable property source: " + source);
			}
			for (String name : enumerable.getPropertyNames()) {
				if (!above.hides(name)) {
					names.add(name);
				}
			}
		}
		return names.toArray(String[]::new);
	}

	@Override
	public @Nullable Origin getOrigin(String key) {
		PropertySource<?> source = winner(key);
		return (source != null) ? OriginLookup.getOrigin(source, key) : null;
	}

	private @Nullable PropertySource<?> winner(String key) {
		List<PropertySource<?>> sources = new ArrayList<>(getPropertySources());
		for (int i = 0; i < sources.size(); i++) {
			if (sources.get(i).containsProperty(key) && !this.clearedAbove.get(i).hides(key)) {
				return sources.get(i);
			}
		}
		return null;
	}

}
