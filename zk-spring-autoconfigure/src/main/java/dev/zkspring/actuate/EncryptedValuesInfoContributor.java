package dev.zkspring.actuate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.config.EncryptedValueReferences;

/**
 * Boot's {@code info} endpoint shows the {@code info.*} properties resolved and is not sanitised: this
 * contributor runs after Boot's environment contributor and shows as {@code ******} each
 * {@code info.*} value that is a {@code {cipher}} value or resolves through one, so neither a ciphertext
 * moved to {@code info.owner} (in the format 1 that is not bound to its key) nor
 * {@code info.owner=${shop.password}} shows a secret.
 */
public final class EncryptedValuesInfoContributor implements InfoContributor, Ordered {

	private static final ConfigurationPropertyName INFO = ConfigurationPropertyName.of("info");

	private final ConfigurableEnvironment environment;

	/** Mask the {@code info.*} values of the given Environment. */
	public EncryptedValuesInfoContributor(ConfigurableEnvironment environment) {
		this.environment = environment;
	}

	@Override
	public void contribute(Info.Builder builder) {
		EncryptedValueReferences references = EncryptedValueReferences.of(this.environment);
		Set<ConfigurationPropertyName> masked = new HashSet<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
			if (source instanceof IterableConfigurationPropertySource iterable) {
				iterable.filter(INFO::isAncestorOf).forEach((name) -> {
					ConfigurationProperty property = source.getConfigurationProperty(name);
					if (references.resolvesThroughEncrypted(name.toString())
							|| (property != null && references.refersToEncrypted(property.getValue()))) {
						masked.add(name);
					}
				});
			}
		}
		if (masked.isEmpty()) {
			return;
		}
		Map<String, Object> info = Binder.get(this.environment)
			.bind(INFO, Bindable.mapOf(String.class, Object.class))
			.orElse(Map.of());
		info.forEach((key, value) -> {
			ConfigurationPropertyName name = child(INFO, key);
			if (name == null || masked.stream().anyMatch((secret) -> secret.equals(name) || name.isAncestorOf(secret))) {
				builder.withDetail(key, mask(name, value, masked));
			}
		});
	}

	/** The value with each masked key, and each key whose name cannot be told, replaced by {@code ******}. */
	private static @Nullable Object mask(@Nullable ConfigurationPropertyName name, @Nullable Object value,
			Set<ConfigurationPropertyName> masked) {
		if (name == null || masked.contains(name)) {
			return SanitizableData.SANITIZED_VALUE;
		}
		if (value instanceof Map<?, ?> map) {
			Map<Object, @Nullable Object> copy = new LinkedHashMap<>();
			map.forEach((key, nested) -> copy.put(key, mask(child(name, String.valueOf(key)), nested, masked)));
			return copy;
		}
		if (value instanceof List<?> list) {
			List<@Nullable Object> copy = new ArrayList<>();
			for (int i = 0; i < list.size(); i++) {
				copy.add(mask(ConfigurationPropertyName.ofIfValid(name + "[" + i + "]"), list.get(i), masked));
			}
			return copy;
		}
		return value;
	}

	private static @Nullable ConfigurationPropertyName child(ConfigurationPropertyName parent, String key) {
		try {
			return parent.append(key);
		}
		catch (RuntimeException ex) {
			return null;
		}
	}

	@Override
	public int getOrder() {
		// after Boot's contributors, whose details it replaces
		return Ordered.LOWEST_PRECEDENCE;
	}

}
