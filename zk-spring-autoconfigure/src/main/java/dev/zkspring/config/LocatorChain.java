package dev.zkspring.config;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.apache.commons.logging.Log;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

import dev.zkspring.client.ZkStartupException;

/**
 * Runs every {@link PropertySourceLocator} in order and remembers what each returned, so a locator
 * that fails while the application runs keeps its previous sources in force.
 */
final class LocatorChain {

	/** How a key set to an empty map ({@code {}}) shows in a change. */
	static final String CLEARED_MAP_VALUE = "{}";

	private final List<PropertySourceLocator> locators;

	private final Map<PropertySourceLocator, List<PropertySource<?>>> previous = new IdentityHashMap<>();

	LocatorChain(List<PropertySourceLocator> locators) {
		this.locators = List.copyOf(locators);
	}

	/** Tell the built-in locator that a watch reported a change of this node, before the reload it causes. */
	void nodeChanged(String znode) {
		for (PropertySourceLocator locator : this.locators) {
			if (locator instanceof JsonZnodePropertySourceLocator json) {
				json.nodeChanged(znode);
			}
		}
	}

	List<PropertySourceLocator> locators() {
		return this.locators;
	}

	/**
	 * Ask every locator for its sources.
	 * @param failOnError whether a failing locator fails the call (startup with fail-fast)
	 * @param logger where a failing locator is reported (at startup: a log deferred until logging is set up)
	 * @return the sources, the highest precedence first, and whether every locator answered
	 */
	synchronized Located locate(ConfigurableEnvironment environment, CuratorFramework client, boolean failOnError,
			Log logger) {
		List<PropertySource<?>> sources = new ArrayList<>();
		boolean complete = true;
		for (PropertySourceLocator locator : this.locators) {
			try {
				List<PropertySource<?>> located = List.copyOf(locator.locate(environment, client));
				this.previous.put(locator, located);
				sources.addAll(located);
				if (locator instanceof JsonZnodePropertySourceLocator json && !json.lastLocateComplete()) {
					complete = false;
				}
			}
			catch (ZkStartupException ex) {
				throw ex;
			}
			catch (Exception ex) {
				String name = locator.getClass().getName();
				if (failOnError) {
					// no cause: a locator's own message may quote a value, and Boot prints causes
					throw new ZkStartupException("The config locator " + name + " failed: " + describe(ex) + ".",
							"Check that ZooKeeper holds what " + name + " reads, or set zk.config.fail-fast=false "
									+ "to start without its sources.",
							(ex instanceof KeeperException) ? ex : null);
				}
				complete = false;
				logger.warn("Config locator " + name + " failed (" + describe(ex)
						+ "); its previous property sources stay in force");
				sources.addAll(this.previous.getOrDefault(locator, List.of()));
			}
		}
		return new Located(sources, complete);
	}

	/** ZooKeeper's own messages name an error code and a path; anything else could quote a value. */
	private static String describe(Exception ex) {
		return (ex instanceof KeeperException) ? ex.getMessage() : ex.getClass().getName();
	}

	static ZkConfigPropertySource composite(List<PropertySource<?>> sources) {
		return new ZkConfigPropertySource(sources);
	}

	/**
	 * The effective value of every key: the first source that has it wins, as in the Environment, and
	 * what a higher source cleared with an empty value is not there.
	 */
	static Map<String, @Nullable Object> effective(List<PropertySource<?>> sources) {
		List<PropertySource<?>> enumerable = sources.stream()
			.filter(EnumerablePropertySource.class::isInstance)
			.toList();
		ZkConfigPropertySource composite = composite(enumerable);
		Map<String, @Nullable Object> values = new LinkedHashMap<>();
		for (String name : composite.getPropertyNames()) {
			values.put(name, atRest(enumerable, name, composite.getProperty(name)));
		}
		// a key set to {} is no property, but setting or removing it changes what binds under it
		composite.clearedMapKeys().forEach((key) -> values.putIfAbsent(key, CLEARED_MAP_VALUE));
		return values;
	}

	/** An encrypted value as its document stores it, so diffs and events carry ciphertext, never the secret. */
	private static @Nullable Object atRest(List<PropertySource<?>> sources, String name, @Nullable Object value) {
		for (PropertySource<?> source : sources) {
			if (source.containsProperty(name)) {
				return (source instanceof ZnodePropertySource znode && znode.isEncrypted(name)
						&& Objects.equals(znode.getProperty(name), value)) ? znode.getStoredValue(name) : value;
			}
		}
		return value;
	}

	/** The sources that come from context znodes, as the snapshot stores them. */
	static List<ZnodePropertySource> znodeSources(List<PropertySource<?>> sources) {
		return sources.stream().filter(ZnodePropertySource.class::isInstance).map(ZnodePropertySource.class::cast).toList();
	}

	record Located(List<PropertySource<?>> sources, boolean complete) {

		List<ZnodePropertySource> znodeSources() {
			return LocatorChain.znodeSources(this.sources);
		}

	}

}
