package dev.zkspring.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.util.PropertyPlaceholderHelper;

/**
 * Which values of an Environment show the plain text of a {@code {cipher}} value: a key that a
 * ZooKeeper document holds encrypted, and a value whose placeholders resolve to one, directly or
 * through other placeholders ({@code spring.datasource.password=${shop.password}}). The views that show
 * values (Boot's {@code env}, {@code configprops} and {@code info} endpoints) ask it, so a reference does
 * not show what the encrypted value itself does not. It errs towards masking: a key counts as
 * encrypted whichever source wins, and a placeholder's default counts as used. One instance answers
 * for the sources as they are when it is made; make one per view.
 */
public final class EncryptedValueReferences {

	private static final PropertyPlaceholderHelper placeholders = new PropertyPlaceholderHelper("${", "}", ":", '\\',
			true);

	private final ConfigurableEnvironment environment;

	private final Set<String> encrypted = new HashSet<>();

	private final Set<ConfigurationPropertyName> encryptedNames = new HashSet<>();

	private final Map<String, Boolean> decided = new HashMap<>();

	private EncryptedValueReferences(ConfigurableEnvironment environment) {
		this.environment = environment;
		for (ZnodePropertySource document : ZnodePropertySource.inForce(environment)) {
			for (String key : document.getPropertyNames()) {
				if (document.isEncrypted(key)) {
					this.encrypted.add(key);
					ConfigurationPropertyName name = name(key);
					if (name != null) {
						this.encryptedNames.add(name);
					}
				}
			}
		}
	}

	/** The references of the given Environment's sources as they are now. */
	public static EncryptedValueReferences of(ConfigurableEnvironment environment) {
		return new EncryptedValueReferences(environment);
	}

	/** Whether a document in force holds the key encrypted (its name as written, or in Boot's canonical form). */
	public boolean isEncrypted(String key) {
		if (this.encrypted.contains(key)) {
			return true;
		}
		ConfigurationPropertyName name = name(key);
		return name != null && this.encryptedNames.contains(name);
	}

	/** Whether the key is encrypted, or a value any source holds for it refers to an encrypted value. */
	public boolean resolvesThroughEncrypted(String key) {
		Boolean known = this.decided.get(key);
		if (known != null) {
			return known;
		}
		// a cycle of placeholders resolves to nothing: it reveals nothing either
		this.decided.put(key, false);
		boolean result = isEncrypted(key) || rawValues(key).stream().anyMatch(this::refersToEncrypted);
		this.decided.put(key, result);
		return result;
	}

	/** Whether a value, as a source holds it (before placeholders are resolved), refers to an encrypted value. */
	public boolean refersToEncrypted(@Nullable Object raw) {
		if (!(raw instanceof String text) || !text.contains("${")) {
			return false;
		}
		Set<String> referenced = new LinkedHashSet<>();
		placeholders.replacePlaceholders(text, (name) -> {
			referenced.add(name);
			return null;
		});
		return referenced.stream().anyMatch(this::resolvesThroughEncrypted);
	}

	/** What every source holds for the key, by its exact name and, as the binder finds it, by its canonical one. */
	private List<Object> rawValues(String key) {
		List<Object> values = new ArrayList<>();
		for (PropertySource<?> source : this.environment.getPropertySources()) {
			if (!ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)) {
				collect(source, key, values);
			}
		}
		ConfigurationPropertyName name = name(key);
		if (name != null) {
			for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
				ConfigurationProperty property = source.getConfigurationProperty(name);
				if (property != null && property.getValue() != null) {
					values.add(property.getValue());
				}
			}
		}
		return values;
	}

	private static void collect(PropertySource<?> source, String key, List<Object> values) {
		if (source instanceof CompositePropertySource composite) {
			for (PropertySource<?> nested : composite.getPropertySources()) {
				collect(nested, key, values);
			}
			return;
		}
		Object value = source.getProperty(key);
		if (value != null) {
			values.add(value);
		}
	}

	private static @Nullable ConfigurationPropertyName name(String key) {
		ConfigurationPropertyName name = ConfigurationPropertyName.ofIfValid(key);
		if (name == null) {
			try {
				name = ConfigurationPropertyName.adapt(key, '.');
			}
			catch (RuntimeException ex) {
				return null;
			}
		}
		return name.isEmpty() ? null : name;
	}

}
