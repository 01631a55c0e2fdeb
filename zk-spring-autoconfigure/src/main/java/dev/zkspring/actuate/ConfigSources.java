package dev.zkspring.actuate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.config.ZnodePropertySource;

/**
 * The config center's keys and, for each, the property source that wins it in the environment (a
 * context znode at a version, or whatever overrides it), with its value passed through Boot's
 * {@link Sanitizer}.
 */
public final class ConfigSources {

	private final ConfigurableEnvironment environment;

	private final Sanitizer sanitizer;

	/** Read the given environment, masking values with the given sanitizing functions. */
	public ConfigSources(ConfigurableEnvironment environment, List<SanitizingFunction> sanitizingFunctions) {
		this.environment = environment;
		this.sanitizer = new Sanitizer(sanitizingFunctions);
	}

	Map<String, Object> describeKeys(boolean showUnsanitized) {
		PropertySource<?> zk = this.environment.getPropertySources().get(ZkConfigInitializer.PROPERTY_SOURCE_NAME);
		if (!(zk instanceof CompositePropertySource composite)) {
			return Map.of();
		}
		TreeSet<String> keys = new TreeSet<>();
		for (PropertySource<?> source : composite.getPropertySources()) {
			if (source instanceof ZnodePropertySource znode) {
				keys.addAll(List.of(znode.getPropertyNames()));
			}
		}
		Map<String, Object> described = new LinkedHashMap<>();
		for (String key : keys) {
			PropertySource<?> winner = winner(this.environment.getPropertySources(), key);
			if (winner != null) {
				described.put(key, describe(winner, key, showUnsanitized));
			}
		}
		return described;
	}

	private Map<String, Object> describe(PropertySource<?> winner, String key, boolean showUnsanitized) {
		Map<String, Object> details = new LinkedHashMap<>();
		if (winner instanceof ZnodePropertySource znode) {
			details.put("source", "znode " + znode.getZnode());
			details.put("version", znode.getVersion());
		}
		else {
			details.put("source", winner.getName());
		}
		// an encrypted value is shown as its document stores it: ciphertext, never the secret
		Object shown = (winner instanceof ZnodePropertySource znode && znode.isEncrypted(key)) ? znode.getStoredValue(key)
				: winner.getProperty(key);
		Object value = this.sanitizer.sanitize(new SanitizableData(winner, key, shown),
				showUnsanitized);
		if (value != null) {
			details.put("value", value.toString());
		}
		return details;
	}

	private static @Nullable PropertySource<?> winner(Iterable<PropertySource<?>> sources, String key) {
		for (PropertySource<?> source : sources) {
			if (ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)) {
				// a view over all the others, not a source of its own
				continue;
			}
			if (source instanceof CompositePropertySource composite) {
				PropertySource<?> nested = winner(composite.getPropertySources(), key);
				if (nested != null) {
					return nested;
				}
			}
			else if (source instanceof EnumerablePropertySource<?> enumerable) {
				if (enumerable.containsProperty(key)) {
					return source;
				}
			}
			else if (source.containsProperty(key)) {
				return source;
			}
		}
		return null;
	}

}
