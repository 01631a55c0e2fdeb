package dev.zkspring.config;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginProvider;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Reports a startup bind failure of a value from ZooKeeper by its key and znode, never by its value
 * (values may be secrets), ahead of Boot's own report, which prints the value. Failures of values from
 * other sources are left to Boot.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class ZkBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		if (cause.getCause() instanceof BindValidationException invalid) {
			return invalid(cause, invalid);
		}
		ConfigurationProperty property = cause.getProperty();
		ZnodePropertySource.ZnodeOrigin origin = (property != null) ? znodeOrigin(property.getOrigin()) : null;
		if (property == null || origin == null) {
			return null;
		}
		String description = "Failed to bind the value of '" + property.getName() + "' from ZooKeeper to "
				+ cause.getTarget().getType() + ".\n\n    Property: " + property.getName() + "\n    Origin: " + origin
				+ "\n    Reason: " + reason(cause) + "\n\n(The value is not shown: values from ZooKeeper may be secrets.)";
		String action = "Correct the value of '" + origin.key() + "' in znode " + origin.znode() + " so that it converts to "
				+ cause.getTarget().getType() + ", or remove the key there.";
		return new FailureAnalysis(description, action, cause);
	}

	/** Validation errors, when one of them is a value from ZooKeeper: each by key, origin and message. */
	private static @Nullable FailureAnalysis invalid(BindException cause, BindValidationException invalid) {
		StringBuilder description = new StringBuilder(
				"Binding '" + cause.getName() + "' to " + cause.getTarget().getType() + " failed validation:\n");
		boolean fromZooKeeper = false;
		for (ObjectError error : invalid.getValidationErrors().getAllErrors()) {
			ZnodePropertySource.ZnodeOrigin origin = znodeOrigin(Origin.from(error));
			fromZooKeeper |= origin != null;
			description.append("\n    Property: ").append(cause.getName()).append('.')
				.append((error instanceof FieldError field) ? field.getField() : error.getObjectName())
				.append("\n    Origin: ").append((origin != null) ? origin : String.valueOf(Origin.from(error)))
				.append("\n    Reason: ").append(error.getDefaultMessage()).append('\n');
		}
		if (!fromZooKeeper) {
			return null;
		}
		description.append("\n(Values are not shown: values from ZooKeeper may be secrets.)");
		return new FailureAnalysis(description.toString(),
				"Correct the values named above (in their znodes, for those from ZooKeeper).", cause);
	}

	/** The znode among the origin, what it wraps (Boot wraps an origin in its property source's) and its parents. */
	private static ZnodePropertySource.@Nullable ZnodeOrigin znodeOrigin(@Nullable Origin origin) {
		for (Origin at = origin; at != null; at = at.getParent()) {
			if (at instanceof ZnodePropertySource.ZnodeOrigin znode) {
				return znode;
			}
			if (at instanceof OriginProvider provider && provider.getOrigin() != at) {
				ZnodePropertySource.ZnodeOrigin wrapped = znodeOrigin(provider.getOrigin());
				if (wrapped != null) {
					return wrapped;
				}
			}
		}
		return null;
	}

	/** The kinds of failure along the causes, without their messages (a converter's message quotes the value). */
	private static String reason(BindException cause) {
		StringBuilder reason = new StringBuilder("it cannot be converted");
		for (Throwable at = cause.getCause(); at != null && at != at.getCause(); at = at.getCause()) {
			reason.append((at == cause.getCause()) ? " (" : ", ").append(at.getClass().getName());
			if (at.getCause() == null || at.getCause() == at) {
				reason.append(")");
			}
		}
		return reason.toString();
	}

}
