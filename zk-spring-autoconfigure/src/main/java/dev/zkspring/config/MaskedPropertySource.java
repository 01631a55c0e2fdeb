package dev.zkspring.config;

import java.util.Arrays;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.env.PropertySourceInfo;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.env.EnumerablePropertySource;

/**
 * A source below the config center's, seen without the keys a ZooKeeper document cleared with an
 * empty value; it keeps the name of the source it wraps, so lookups by name still find it.
 */
final class MaskedPropertySource extends EnumerablePropertySource<EnumerablePropertySource<?>>
		implements OriginLookup<String>, PropertySourceInfo {

	private final ClearedKeys cleared;

	MaskedPropertySource(EnumerablePropertySource<?> delegate, ClearedKeys cleared) {
		super(delegate.getName(), delegate);
		this.cleared = cleared;
	}

	EnumerablePropertySource<?> delegate() {
		return this.source;
	}

	ClearedKeys cleared() {
		return this.cleared;
	}

	@Override
	public @Nullable Object getProperty(String name) {
		// the delegate is asked first: only its own keys are ever judged, so the decisions stay bounded
		Object value = this.source.getProperty(name);
		return (value == null || this.cleared.hides(name)) ? null : value;
	}

	@Override
	public boolean containsProperty(String name) {
		return this.source.containsProperty(name) && !this.cleared.hides(name);
	}

	@Override
	public String[] getPropertyNames() {
		return Arrays.stream(this.source.getPropertyNames())
			.filter((name) -> !this.cleared.hides(name))
			.toArray(String[]::new);
	}

	@Override
	public @Nullable Origin getOrigin(String key) {
		return containsProperty(key) ? OriginLookup.getOrigin(this.source, key) : null;
	}

	@Override
	public boolean isImmutable() {
		return (this.source instanceof PropertySourceInfo info) && info.isImmutable();
	}

	@Override
	public @Nullable String getPrefix() {
		return (this.source instanceof PropertySourceInfo info) ? info.getPrefix() : null;
	}

	@Override
	public String toString() {
		return "MaskedPropertySource[" + this.source + " without the keys below " + this.cleared + "]";
	}

}
