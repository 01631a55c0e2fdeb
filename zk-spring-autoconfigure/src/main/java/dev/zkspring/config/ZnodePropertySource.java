package dev.zkspring.config;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

/**
 * The keys of one context znode, as accepted: every key reports (through {@link OriginLookup}) the
 * znode and the node version it came from, which is what the actuator endpoint shows. A
 * {@code {cipher}} value is held decrypted for the Environment, and as the document stored it
 * ({@link #getStoredValue}) for everything that shows or keeps it.
 */
public final class ZnodePropertySource extends EnumerablePropertySource<Map<String, String>>
		implements OriginLookup<String> {

	/**
	 * The suffix of the marker key a JSON {@code {}} becomes ({@code routes[]}, a key no document can
	 * spell otherwise): not a property, but what clears the map below it in the lower sources.
	 */
	public static final String CLEARED_MAP = "[]";

	private final String znode;

	private final int version;

	private final Set<String> clearedMaps;

	private final String[] names;

	private final Map<String, String> stored;

	/**
	 * The config center's context sources in force in the environment, the highest precedence first;
	 * empty when it loaded nothing. For the views that describe them (actuator, fleet).
	 */
	public static List<ZnodePropertySource> inForce(ConfigurableEnvironment environment) {
		List<ZnodePropertySource> contexts = new ArrayList<>();
		if (environment.getPropertySources().get(ZkConfigInitializer.PROPERTY_SOURCE_NAME) instanceof CompositePropertySource zk) {
			for (PropertySource<?> source : zk.getPropertySources()) {
				if (source instanceof ZnodePropertySource znode) {
					contexts.add(znode);
				}
			}
		}
		return contexts;
	}

	/**
	 * Create the source of one context znode.
	 * @param znode the context node's path, as seen by the client (inside its namespace)
	 * @param version the node's data version the keys were read from; -1 when the node is missing
	 * @param properties the flattened keys and their values
	 */
	public ZnodePropertySource(String znode, int version, Map<String, String> properties) {
		this(znode, version, properties, properties);
	}

	/** A source whose values are the stored ones decrypted (the same map when none is encrypted). */
	ZnodePropertySource(String znode, int version, Map<String, String> properties, Map<String, String> stored) {
		super("zk:" + znode, Collections.unmodifiableMap(properties));
		this.stored = (stored == properties) ? this.source : Collections.unmodifiableMap(stored);
		this.znode = znode;
		this.version = version;
		Set<String> cleared = new LinkedHashSet<>();
		List<String> names = new ArrayList<>();
		properties.keySet().forEach((key) -> {
			if (key.endsWith(CLEARED_MAP)) {
				cleared.add(key.substring(0, key.length() - CLEARED_MAP.length()));
			}
			else {
				names.add(key);
			}
		});
		this.clearedMaps = Collections.unmodifiableSet(cleared);
		this.names = names.toArray(String[]::new);
	}

	/** The keys this document sets to an empty map ({@code {}}), which clear the lower sources' maps. */
	public Set<String> getClearedMaps() {
		return this.clearedMaps;
	}

	/** The context znode these keys came from. */
	public String getZnode() {
		return this.znode;
	}

	/** The node's data version these keys were read from. */
	public int getVersion() {
		return this.version;
	}

	/**
	 * The value of a key as the document stores it: the {@code {cipher}} form of an encrypted value
	 * (never its plain text), else the value itself; for views and events that must not show secrets.
	 */
	public @Nullable String getStoredValue(String key) {
		return containsProperty(key) ? this.stored.get(key) : null;
	}

	/** Whether the document holds the key's value encrypted. */
	public boolean isEncrypted(String key) {
		return this.stored != this.source && ConfigCipher.isEncrypted(getStoredValue(key));
	}

	/** Every key as the document stores it, for the snapshot on disk. */
	Map<String, String> stored() {
		return this.stored;
	}

	@Override
	public @Nullable Object getProperty(String name) {
		return name.endsWith(CLEARED_MAP) ? null : this.source.get(name);
	}

	@Override
	public boolean containsProperty(String name) {
		return !name.endsWith(CLEARED_MAP) && this.source.containsKey(name);
	}

	@Override
	public String[] getPropertyNames() {
		return this.names.clone();
	}

	@Override
	public @Nullable Origin getOrigin(String key) {
		return containsProperty(key) ? new ZnodeOrigin(this.znode, this.version, key) : null;
	}

	@Override
	public String toString() {
		return "ZnodePropertySource[" + this.znode + " v" + this.version + ", " + this.source.size() + " keys]";
	}

	/** Where a key came from: a znode at a version. */
	public record ZnodeOrigin(String znode, int version, String key) implements Origin {

		@Override
		public String toString() {
			return "znode " + this.znode + " (version " + this.version + "), key '" + this.key + "'";
		}

	}

}
