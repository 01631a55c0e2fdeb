package dev.zkspring.config;

import java.util.Arrays;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.env.PropertySourceInfo;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.env.EnumerablePropertySource;

/**
 * A source below the config center's, seen without the keys a ZooKeeper document cleared with an
 * empty value; it keeps the name of the source it wraps, so lookups by name still find it. In the
 * Environment a mask follows the config center's source, so both change in the same step.
 */
final class MaskedPropertySource extends EnumerablePropertySource<EnumerablePropertySource<?>>
		implements OriginLookup<String>, PropertySourceInfo {

	private final @Nullable ClearedKeys cleared;

	private final @Nullable ZkConfigPropertySource above;

	/** The names last listed, and the hiding they were listed under (for an immutable delegate). */
	private volatile @Nullable Listed listed;

	/** A mask that hides the given keys, for a copy of the sources that is tried, never changed. */
	MaskedPropertySource(EnumerablePropertySource<?> delegate, ClearedKeys cleared) {
		super(delegate.getName(), delegate);
		this.cleared = cleared;
		this.above = null;
	}

	/** A mask that hides what the given source in force clears now, whatever it becomes. */
	MaskedPropertySource(EnumerablePropertySource<?> delegate, ZkConfigPropertySource above) {
		super(delegate.getName(), delegate);
		this.cleared = null;
		this.above = above;
	}

	EnumerablePropertySource<?> delegate() {
		return this.source;
	}

	/** Whether this mask hides a fixed set of keys, not what a source in force clears. */
	boolean isFixed() {
		return this.above == null;
	}

	/** Whether this mask follows the hiding of the given source in force. */
	boolean follows(ZkConfigPropertySource source) {
		return this.above == source;
	}

	ClearedKeys cleared() {
		return (this.above != null) ? this.above.cleared() : Objects.requireNonNull(this.cleared);
	}

	@Override
	public @Nullable Object getProperty(String name) {
		// the delegate is asked first: only its own keys are ever judged, so the decisions stay bounded
		Object value = this.source.getProperty(name);
		return (value == null || cleared().hides(name)) ? null : value;
	}

	@Override
	public boolean containsProperty(String name) {
		return this.source.containsProperty(name) && !cleared().hides(name);
	}

	@Override
	public String[] getPropertyNames() {
		ClearedKeys hiding = cleared();
		boolean immutable = (this.source instanceof PropertySourceInfo info) && info.isImmutable();
		Listed last = this.listed;
		if (immutable && last != null && last.hiding() == hiding) {
			// the same array while nothing changed: Boot compares it to tell whether the names did
			return last.names();
		}
		String[] names = hiding.isEmpty() ? this.source.getPropertyNames()
				: Arrays.stream(this.source.getPropertyNames()).filter((name) -> !hiding.hides(name)).toArray(String[]::new);
		if (immutable) {
			this.listed = new Listed(hiding, names);
		}
		return names;
	}

	@Override
	public @Nullable Origin getOrigin(String key) {
		return containsProperty(key) ? OriginLookup.getOrigin(this.source, key) : null;
	}

	@Override
	public boolean isImmutable() {
		// a mask that follows the source in force lists other names after a change
		return this.above == null && (this.source instanceof PropertySourceInfo info) && info.isImmutable();
	}

	@Override
	public @Nullable String getPrefix() {
		return (this.source instanceof PropertySourceInfo info) ? info.getPrefix() : null;
	}

	@Override
	public String toString() {
		return "MaskedPropertySource[" + this.source + " without the keys below " + cleared() + "]";
	}

	/** Names listed under a hiding. */
	private record Listed(ClearedKeys hiding, String[] names) {

	}

}
