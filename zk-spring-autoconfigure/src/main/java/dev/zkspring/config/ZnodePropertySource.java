package dev.zkspring.config;

import java.util.Collections;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.env.EnumerablePropertySource;

/**
 * The keys of one context znode, as accepted: every key reports (through {@link OriginLookup}) the
 * znode and the node version it came from, which is what the actuator endpoint shows.
 */
public final class ZnodePropertySource extends EnumerablePropertySource<Map<String, String>>
		implements OriginLookup<String> {

	private final String znode;

	private final int version;

	/**
	 * Create the source of one context znode.
	 * @param znode the context node's path, as seen by the client (inside its namespace)
	 * @param version the node's data version the keys were read from; -1 when the node is missing
	 * @param properties the flattened keys and their values
	 */
	public ZnodePropertySource(String znode, int version, Map<String, String> properties) {
		super("zk:" + znode, Collections.unmodifiableMap(properties));
		this.znode = znode;
		this.version = version;
	}

	/** The context znode these keys came from. */
	public String getZnode() {
		return this.znode;
	}

	/** The node's data version these keys were read from. */
	public int getVersion() {
		return this.version;
	}

	@Override
	public @Nullable Object getProperty(String name) {
		return this.source.get(name);
	}

	@Override
	public boolean containsProperty(String name) {
		return this.source.containsKey(name);
	}

	@Override
	public String[] getPropertyNames() {
		return this.source.keySet().toArray(String[]::new);
	}

	@Override
	public @Nullable Origin getOrigin(String key) {
		return this.source.containsKey(key) ? new ZnodeOrigin(this.znode, this.version, key) : null;
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
