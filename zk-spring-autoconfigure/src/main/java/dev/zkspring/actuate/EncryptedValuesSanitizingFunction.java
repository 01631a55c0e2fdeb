package dev.zkspring.actuate;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

import dev.zkspring.config.EncryptedValueReferences;
import dev.zkspring.config.ZnodePropertySource;

/**
 * Keeps the plain text of {@code {cipher}} values out of the endpoints that show property values with
 * their source (Boot's {@code env} and {@code configprops}, and the {@code zookeeper} endpoint), even
 * with {@code show-values=always}: a value a ZooKeeper document holds encrypted is shown as that
 * ciphertext, and a value whose placeholders resolve to an encrypted one
 * ({@code spring.datasource.password=${shop.password}}) as {@code ******}.
 */
public final class EncryptedValuesSanitizingFunction implements SanitizingFunction {

	private final @Nullable ConfigurableEnvironment environment;

	/** A function that shows encrypted values as their ciphertext only, without following placeholders. */
	public EncryptedValuesSanitizingFunction() {
		this(null);
	}

	/** A function that also masks the values of the given Environment that resolve through an encrypted one. */
	public EncryptedValuesSanitizingFunction(@Nullable ConfigurableEnvironment environment) {
		this.environment = environment;
	}

	@Override
	public SanitizableData apply(SanitizableData data) {
		PropertySource<?> source = data.getPropertySource();
		ZnodePropertySource document = document(source, data.getKey());
		if (document != null) {
			return data.withValue(document.getStoredValue(data.getKey()));
		}
		if (this.environment == null) {
			return data;
		}
		EncryptedValueReferences references = EncryptedValueReferences.of(this.environment);
		boolean masked;
		if (source == null) {
			masked = references.resolvesThroughEncrypted(data.getKey());
		}
		else if (zooKeeper(source)) {
			// a key the document names in another form than the one shown (shop.myPassword as shop.my-password)
			masked = references.isEncrypted(data.getKey()) || references.refersToEncrypted(raw(source, data.getKey()));
		}
		else {
			masked = references.refersToEncrypted(raw(source, data.getKey()));
		}
		return masked ? data.withSanitizedValue() : data;
	}

	/** What the source holds for the key before placeholders are resolved, by its name or its canonical form. */
	private static @Nullable Object raw(PropertySource<?> source, String key) {
		Object value = source.getProperty(key);
		if (value != null) {
			return value;
		}
		ConfigurationPropertyName name = ConfigurationPropertyName.ofIfValid(key);
		ConfigurationPropertySource adapted = (name != null) ? ConfigurationPropertySource.from(source) : null;
		ConfigurationProperty property = (adapted != null) ? adapted.getConfigurationProperty(name) : null;
		return (property != null) ? property.getValue() : null;
	}

	private static boolean zooKeeper(PropertySource<?> source) {
		return source instanceof ZnodePropertySource || (source instanceof CompositePropertySource composite
				&& composite.getPropertySources().stream().anyMatch(ZnodePropertySource.class::isInstance));
	}

	/** The context document that holds the key encrypted, directly or as the winner inside the config center's source. */
	private static @Nullable ZnodePropertySource document(@Nullable PropertySource<?> source, String key) {
		if (source instanceof ZnodePropertySource znode) {
			return znode.isEncrypted(key) ? znode : null;
		}
		if (source instanceof CompositePropertySource composite) {
			for (PropertySource<?> nested : composite.getPropertySources()) {
				if (nested.containsProperty(key)) {
					return document(nested, key);
				}
			}
		}
		return null;
	}

}
