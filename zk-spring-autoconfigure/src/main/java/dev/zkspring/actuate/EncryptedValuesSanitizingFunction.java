package dev.zkspring.actuate;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.PropertySource;

import dev.zkspring.config.ZnodePropertySource;

/**
 * Shows a value that a ZooKeeper document holds encrypted ({@code {cipher}…}) as that ciphertext in
 * Boot's {@code env} endpoint and in the {@code zookeeper} endpoint (any endpoint that tells the
 * property source a value came from), so that {@code show-values=always} does not reveal a secret
 * that is kept encrypted at rest.
 */
public final class EncryptedValuesSanitizingFunction implements SanitizingFunction {

	@Override
	public SanitizableData apply(SanitizableData data) {
		ZnodePropertySource document = document(data.getPropertySource(), data.getKey());
		return (document != null) ? data.withValue(document.getStoredValue(data.getKey())) : data;
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
