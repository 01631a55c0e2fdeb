package dev.zkspring.sample;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.stereotype.Component;

import dev.zkspring.config.ZnodePropertySource;

/** Where a configuration value comes from: a znode at a version, or the file (or whatever else wins the key). */
@Component
class ValueSources {

	private final ConfigurableEnvironment environment;

	ValueSources(ConfigurableEnvironment environment) {
		this.environment = environment;
	}

	String sourceOf(String key) {
		PropertySource<?> winner = winner(this.environment.getPropertySources(), key);
		if (winner instanceof ZnodePropertySource znode) {
			return "znode " + znode.getZnode() + " (version " + znode.getVersion() + ")";
		}
		if (winner == null) {
			return "default in code";
		}
		// Boot names a packaged file "Config resource 'class path resource [application.yml]' via location ..."
		return winner.getName().replaceFirst(" via location .*", "")
			.replaceFirst("^Config resource 'class path resource \\[(.*)\\]'$", "$1");
	}

	private static @Nullable PropertySource<?> winner(Iterable<PropertySource<?>> sources, String key) {
		for (PropertySource<?> source : sources) {
			if (ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)) {
				continue;
			}
			if (source instanceof CompositePropertySource composite) {
				PropertySource<?> nested = winner(composite.getPropertySources(), key);
				if (nested != null) {
					return nested;
				}
			}
			else if (source.containsProperty(key)) {
				return source;
			}
		}
		return null;
	}

}
