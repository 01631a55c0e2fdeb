package dev.zkspring.config;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginLookup;
import org.springframework.core.env.CompositePropertySource;
import org.springframework.core.env.PropertySource;

/** The config center's one source in the Environment; a key's origin is that of the source it wins in. */
final class ZkConfigPropertySource extends CompositePropertySource implements OriginLookup<String> {

	ZkConfigPropertySource() {
		super(ZkConfigInitializer.PROPERTY_SOURCE_NAME);
	}

	@Override
	public @Nullable Origin getOrigin(String key) {
		for (PropertySource<?> source : getPropertySources()) {
			if (source.containsProperty(key)) {
				return OriginLookup.getOrigin(source, key);
			}
		}
		return null;
	}

}
