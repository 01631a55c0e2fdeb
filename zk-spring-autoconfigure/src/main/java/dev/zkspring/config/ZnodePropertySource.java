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

	private final @Nullable Candidate candidate;
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
		this(znode, version, properties, properties, null);
	}

	/**
	 * Create the source of one context znode, from its base document or a canary's candidate.
	 * @param znode the context node's path, as seen by the client (inside its namespace)
	 * @param version the context node's data version when the keys were read; -1 when the node is missing
	 * @param properties the flattened keys and their values
	 * @param candidate the canary the keys came from, {@code null} when they came from the base document
	 */
	public ZnodePropertySource(String znode, int version, Map<String, String> properties,
			@Nullable Candidate candidate) {
		this(znode, version, properties, properties, candidate);
	}

	/** A source whose values are the stored ones decrypted (the same map when none is encrypted). */
	ZnodePropertySource(String znode, int version, Map<String, String> properties, Map<String, String> stored) {
		this(znode, version, properties, stored, null);
	}

	/** A base document's or candidate's source whose values are the stored ones decrypted. */
	ZnodePropertySource(String znode, int version, Map<String, String> properties, Map<String, String> stored,
			@Nullable Candidate candidate) {
		super("zk:" + znode, Collections.unmodifiableMap(properties));
		this.stored = (stored == properties) ? this.source : Collections.unmodifiableMap(stored);
		this.znode = znode;
		this.version = version;
		this.candidate = candidate;
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

	/** The canary whose candidate this instance runs for the context, {@code null} when it runs the base document. */
	public @Nullable Candidate getCandidate() {
		return this.candidate;

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
		if (!containsProperty(key)) {
			return null;
		}
		// a candidate's key comes from the canary node: that is where an operator corrects it
		return (this.candidate != null) ? new ZnodeOrigin(this.candidate.znode(), this.candidate.version(), key)
				: new ZnodeOrigin(this.znode, this.version, key);
	}

	@Override
	public String toString() {
		return "ZnodePropertySource[" + this.znode + " v" + this.version
				+ ((this.candidate != null) ? ", canary revision " + this.candidate.revision() : "") + ", "
				+ this.source.size() + " keys]";
	}

	/**
	 * The canary a context's keys came from (see {@link ConfigCanary}).
	 * @param znode the canary node
	 * @param version the canary node's data version the candidate was read from
	 * @param revision the candidate's revision
	 * @param digest the candidate document's digest ({@link ConfigCanary#digest()}); {@code null} when not known
	 * (a snapshot written before it was recorded), which no canary node matches
	 */
	public record Candidate(String znode, int version, long revision, @Nullable String digest) {

		/** A candidate whose document's digest is not known. */
		public Candidate(String znode, int version, long revision) {
			this(znode, version, revision, null);
		}

	}

	/** Where a key came from: a znode at a version. */
	public record ZnodeOrigin(String znode, int version, String key) implements Origin {

		@Override
		public String toString() {
			return "znode " + this.znode + " (version " + this.version + "), key '" + this.key + "'";
		}

	}

}
