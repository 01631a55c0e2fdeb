package dev.zkspring.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

/**
 * A change of the configuration from ZooKeeper that has been read and parsed but not applied yet:
 * what the Environment's property sources would be, the per-key diff, and the one operation that
 * applies it. Handed to a {@link ZkConfigApplier} so it can validate before anything changes.
 */
public final class ZkConfigCandidate {

	private final ConfigurableEnvironment environment;

	private final CompositeSwap swap;

	private final List<PropertySource<?>> before;

	private final List<PropertySource<?>> after;

	private final List<ZkConfigChange> changes;

	private final AtomicBoolean swapped = new AtomicBoolean();

	ZkConfigCandidate(ConfigurableEnvironment environment, List<PropertySource<?>> before,
			List<PropertySource<?>> after, List<ZkConfigChange> changes, CompositeSwap swap) {
		this.environment = environment;
		this.before = List.copyOf(before);
		this.after = List.copyOf(after);
		this.changes = List.copyOf(changes);
		this.swap = swap;
	}

	/**
	 * A copy of the Environment's property sources with the config center's source replaced by the
	 * candidate, in the same order; without Boot's attached {@code configurationProperties} source,
	 * which {@link ConfigurationPropertySources#attach} adds to an Environment built on the copy. The
	 * lower sources are seen without the keys the candidate clears with an empty value ({@code {}}).
	 */
	public MutablePropertySources getPropertySources() {
		MutablePropertySources copy = new MutablePropertySources();
		ZkConfigPropertySource composite = LocatorChain.composite(this.after);
		for (PropertySource<?> source : this.environment.getPropertySources()) {
			if (ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)) {
				continue;
			}
			copy.addLast(ZkConfigInitializer.PROPERTY_SOURCE_NAME.equals(source.getName()) ? composite : source);
		}
		// what the candidate clears with an empty value is hidden in the lower sources, as after the swap
		composite.cleared().hideBelow(copy, ZkConfigInitializer.PROPERTY_SOURCE_NAME);
		return copy;
	}

	/** Every key that would be added, changed or removed, with its old and new value. */
	public List<ZkConfigChange> getChanges() {
		return this.changes;
	}

	/** The data version of every context znode the candidate was read from, the highest precedence first. */
	public Map<String, Integer> getZnodeVersions() {
		Map<String, Integer> versions = new LinkedHashMap<>();
		for (PropertySource<?> source : this.after) {
			if (source instanceof ZnodePropertySource znode) {
				versions.put(znode.getZnode(), znode.getVersion());
			}
		}
		return versions;
	}

	/**
	 * The context znode a key comes from in the candidate or, for a removed key, came from before.
	 * @param key the Spring property key
	 * @return the znode's source, or {@code null} when no znode holds the key
	 */
	public @Nullable ZnodePropertySource locate(String key) {
		ZnodePropertySource found = locate(this.after, key);
		return (found != null) ? found : locate(this.before, key);
	}

	private static @Nullable ZnodePropertySource locate(List<PropertySource<?>> sources, String key) {
		for (PropertySource<?> source : sources) {
			if (source instanceof ZnodePropertySource znode && znode.containsProperty(key)) {
				return znode;
			}
		}
		return null;
	}

	/** Put the candidate into the Environment. Call once, under whatever lock makes the change atomic. */
	public void swap() {
		if (this.swapped.compareAndSet(false, true)) {
			this.swap.run(LocatorChain.composite(this.after));
		}
	}

	boolean isSwapped() {
		return this.swapped.get();
	}

	/** What {@link #swap()} does to the Environment. */
	@FunctionalInterface
	interface CompositeSwap {

		void run(PropertySource<?> composite);

	}

}
