package dev.zkspring.refresh;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.annotation.MergedAnnotations;

/**
 * Binds a {@code @ConfigurationProperties} type, at the top or nested, from its properties only, never
 * from one value converted as a whole: what Boot's binder of {@code @ConfigurationProperties} does, so a
 * rebind takes the same path as the startup bind.
 */
final class PropertiesOnlyBindHandler extends AbstractBindHandler {

	PropertiesOnlyBindHandler(BindHandler parent) {
		super(parent);
	}

	@Override
	public <T> Bindable<T> onStart(ConfigurationPropertyName name, Bindable<T> target, BindContext context) {
		Class<?> type = target.getType().resolve();
		Bindable<T> restricted = (type != null && MergedAnnotations.from(type).isPresent(ConfigurationProperties.class))
				? target.withBindRestrictions(Bindable.BindRestriction.NO_DIRECT_PROPERTY) : target;
		return super.onStart(name, restricted, context);
	}

}
