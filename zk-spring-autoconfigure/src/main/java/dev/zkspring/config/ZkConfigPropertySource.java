package dev.zkspring.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * The config center's one source in the Environment; a key's origin is that of the source it wins in.
 * A key a higher context clears with an empty value hides what lies below it in the lower contexts, and,
 * through the masks of {@link #maskBelow}, in the Environment's lower sources. The source in the
 * Environment stays the same object: a change {@link #become replaces its state} with one volatile
 * write, which its masks read too, so no reader sees a new document with the old hiding.
 */
final class ZkConfigPropertySource extends CompositePropertySource implements OriginLookup<String> {

	private volatile State state;

	ZkConfigPropertySource(List<PropertySource<?>> sources) {
		super(ZkConfigInitializer.PROPERTY_SOURCE_NAME);
		this.state = State.of(sources);
	}

	/** Take the other source's contexts and hiding, in one step for every reader of this one and of its masks. */
	void become(ZkConfigPropertySource other) {
		this.state = other.state;
	}

	/**
	 * Put a mask that follows this source's hiding over every enumerable source below it that has none
	 * yet. Changes nothing a reader sees: a mask hides what this source's current state hides.
	 */
	void maskBelow(MutablePropertySources sources) {
		List<PropertySource<?>> all = new ArrayList<>();
		sources.forEach(all::add);
		boolean below = false;
		for (PropertySource<?> source : all) {
			if (!below) {
				below = source == this;
				continue;
			}
			if (source instanceof MaskedPropertySource masked && masked.follows(this)) {
				continue;
			}
			PropertySource<?> plain = (source instanceof MaskedPropertySource masked) ? masked.delegate() : source;
			if (plain instanceof EnumerablePropertySource<?> enumerable) {
				sources.replace(source.getName(), new MaskedPropertySource(enumerable, this));
			}
		}
	}

	/** The keys set to an empty map, which are not properties themselves (a change still names them). */
	List<String> clearedMapKeys() {
		return this.state.clearedMapKeys();
	}

	ClearedKeys cleared() {
		return this.state.cleared();
	}

	@Override
	public Collection<PropertySource<?>> getPropertySources() {
		return this.state.sources();
	}

	@Override
	public void addPropertySource(PropertySource<?> propertySource) {
		throw new UnsupportedOperationException("the config center's source changes as a whole");
	}

	@Override
	public void addFirstPropertySource(PropertySource<?> propertySource) {
		throw new UnsupportedOperationException("the config center's source changes as a whole");
	}

	@Override
	public @Nullable Object getProperty(String name) {
		State current = this.state;
		for (int i = 0; i < current.sources().size(); i++) {
			// the source is asked first: only its own keys are judged, so the decisions stay bounded
			Object value = current.sources().get(i).getProperty(name);
			if (value != null && !current.clearedAbove().get(i).hides(name)) {
				return value;
			}
		}
		return null;
	}

	@Override
	public boolean containsProperty(String name) {
		return winner(this.state, name) != null;
	}

	@Override
	public String[] getPropertyNames() {
		State current = this.state;
		if (current.names() == null) {
			throw new IllegalStateException(
					"Failed to enumerate property names due to non-enumerable property source: " + current.unlisted());
		}
		// the same array while the state is: Boot compares it to tell whether the names changed
		return current.names();
	}

	@Override
	public @Nullable Origin getOrigin(String key) {
		PropertySource<?> source = winner(this.state, key);
		return (source != null) ? OriginLookup.getOrigin(source, key) : null;
	}

	@Override
	public String toString() {
		return getClass().getSimpleName() + " {name='" + getName() + "', propertySources=" + this.state.sources() + "}";
	}

	private static @Nullable PropertySource<?> winner(State state, String key) {
		for (int i = 0; i < state.sources().size(); i++) {
			if (state.sources().get(i).containsProperty(key) && !state.clearedAbove().get(i).hides(key)) {
				return state.sources().get(i);
			}
		}
		return null;
	}

	/**
	 * The contexts in force and what they hide, never changed once built.
	 * @param sources the contexts, the highest precedence first
	 * @param clearedAbove for each source, what the sources above it cleared
	 * @param cleared what this whole source clears in the sources below it
	 * @param clearedMapKeys the keys set to an empty map
	 * @param names every key, as {@link #getPropertyNames()} gives them; {@code null} when a source cannot list its keys
	 * @param unlisted the first source that cannot list its keys, if any
	 */
	private record State(List<PropertySource<?>> sources, List<ClearedKeys> clearedAbove, ClearedKeys cleared,
			List<String> clearedMapKeys, String @Nullable [] names, @Nullable PropertySource<?> unlisted) {

		static State of(List<PropertySource<?>> sources) {
			List<ClearedKeys> clearedAbove = new ArrayList<>();
			Set<String> visible = new HashSet<>();
			Set<String> clearing = new LinkedHashSet<>();
			Set<String> names = new LinkedHashSet<>();
			PropertySource<?> unlisted = null;
			for (PropertySource<?> source : sources) {
				ClearedKeys above = ClearedKeys.of(clearing);
				clearedAbove.add(above);
				if (source instanceof ZnodePropertySource znode) {
					znode.getClearedMaps().stream().filter((key) -> !above.hides(key)).forEach(clearing::add);
				}
				if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
					unlisted = (unlisted != null) ? unlisted : source;
					continue;
				}
				for (String name : enumerable.getPropertyNames()) {
					if (!above.hides(name)) {
						names.add(name);
						if (visible.add(name) && "".equals(enumerable.getProperty(name))) {
							// an empty value ([] or "") clears what lies below it as well
							clearing.add(name);
						}
					}
				}
			}
			List<String> clearedMapKeys = clearing.stream().filter((key) -> !visible.contains(key)).toList();
			return new State(List.copyOf(sources), List.copyOf(clearedAbove), ClearedKeys.of(clearing), clearedMapKeys,
					(unlisted != null) ? null : names.toArray(String[]::new), unlisted);
		}

	}

}
