package dev.zkspring.config;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Applies {@code logging.level.*} keys that come from ZooKeeper through Boot's {@link LoggingSystem}:
 * at startup (Boot applied the other sources' levels before the config center's source existed) and
 * on every change. The level applied is the Environment's, so a higher source (an environment
 * variable) still wins; a key that disappears reverts to the lower source's level, or the default.
 */
final class ZkLogLevels {

	private static final Log logger = LogFactory.getLog(ZkConfigInitializer.class);

	private static final String PREFIX = "logging.level";

	private final ConfigurableEnvironment environment;

	private final @Nullable LoggingSystem system;

	ZkLogLevels(ConfigurableEnvironment environment, ClassLoader classLoader) {
		this.environment = environment;
		this.system = loggingSystem(classLoader);
	}

	private static @Nullable LoggingSystem loggingSystem(ClassLoader classLoader) {
		try {
			return LoggingSystem.get(classLoader);
		}
		catch (RuntimeException ex) {
			logger.warn("No logging system to apply logging.level.* from ZooKeeper to (" + ex.getClass().getName() + ")");
			return null;
		}
	}

	/** Apply the levels of the given keys (those from ZooKeeper at startup). */
	void applyKeys(Collection<String> keys) {
		Set<String> loggers = new LinkedHashSet<>();
		keys.forEach((key) -> {
			String logger = loggerName(key);
			if (logger != null) {
				loggers.add(logger);
			}
		});
		apply(loggers);
	}

	/** Apply the levels of the keys a change touched. */
	void apply(Collection<ZkConfigChange> changes) {
		applyKeys(changes.stream().map(ZkConfigChange::key).toList());
	}

	private void apply(Set<String> loggers) {
		if (loggers.isEmpty() || this.system == null) {
			return;
		}
		Map<String, String> levels = Binder.get(this.environment)
			.bind(PREFIX, Bindable.mapOf(String.class, String.class))
			.orElseGet(Map::of);
		for (String name : loggers) {
			String value = levels.get(name);
			LogLevel level = null;
			if (value != null && !value.isBlank()) {
				level = level(value.trim());
				if (level == null) {
					logger.warn("Ignoring " + PREFIX + "." + name + ": it is not a log level (TRACE, DEBUG, INFO, WARN, "
							+ "ERROR, FATAL or OFF)");
					continue;
				}
			}
			String target = "root".equalsIgnoreCase(name) ? LoggingSystem.ROOT_LOGGER_NAME : name;
			try {
				// null resets the logger to what the logging configuration gives it
				this.system.setLogLevel(target, level);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not set the level of logger '" + name + "' (" + ex.getClass().getName() + ")");
			}
		}
	}

	private static @Nullable LogLevel level(String value) {
		if ("false".equalsIgnoreCase(value)) {
			// YAML reads a bare off as false; Boot takes it as OFF
			return LogLevel.OFF;
		}
		try {
			return LogLevel.valueOf(value.toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

	/** The logger a key sets the level of, or {@code null} when it is not a {@code logging.level} key. */
	static @Nullable String loggerName(String key) {
		if (!key.startsWith(PREFIX) || key.length() <= PREFIX.length() + 1) {
			return null;
		}
		String rest = key.substring(PREFIX.length());
		if (rest.startsWith(".")) {
			return rest.substring(1);
		}
		if (rest.startsWith("[") && rest.endsWith("]")) {
			return rest.substring(1, rest.length() - 1);
		}
		return null;
	}

}
