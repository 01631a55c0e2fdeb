package dev.zkspring.config;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.config.ConfigDataResource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;

/**
 * One {@code zk:} import, resolved: the settings bound from the importing files, the context znodes to
 * read and whether the location is {@code optional:}.
 */
final class ZkConfigDataResource extends ConfigDataResource {

	private final ConfigSettings settings;

	private final ConfigContexts contexts;

	private final boolean optional;

	private final Binder binder;

	ZkConfigDataResource(ConfigSettings settings, ConfigContexts contexts, boolean optional, Binder binder) {
		super(optional);
		this.settings = settings;
		this.contexts = contexts;
		this.optional = optional;
		this.binder = binder;
	}

	ConfigSettings settings() {
		return this.settings;
	}

	ConfigContexts contexts() {
		return this.contexts;
	}

	boolean optional() {
		return this.optional;
	}

	/**
	 * What the other {@link PropertySourceLocator}s see at startup: the importing files (through Boot's
	 * binder, as the Environment is not complete yet), then system properties and environment variables.
	 */
	ConfigurableEnvironment environment() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().addFirst(new PropertySource<>("zkImportingFiles", this.binder) {

			@Override
			public @Nullable Object getProperty(String name) {
				if (!ConfigurationPropertyName.isValid(name)) {
					return null;
				}
				try {
					return getSource().bind(name, String.class).orElse(null);
				}
				catch (RuntimeException ex) {
					// a key that holds a map or list is not one value
					return null;
				}
			}

		});
		return environment;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof ZkConfigDataResource resource && this.contexts.equals(resource.contexts)
				&& this.optional == resource.optional;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.contexts, this.optional);
	}

	@Override
	public String toString() {
		return "zk:" + this.contexts.root() + " " + this.contexts.highestFirst();
	}

}
