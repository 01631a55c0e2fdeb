package dev.zkspring.config;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
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
 * Besides the keys named, every logger whose level the Environment gives differently than at the last
 * application is applied: a {@code {}} under {@code logging.level} hides the levels of lower sources,
 * which no key of the change names. Create it before the config center's source hides anything, so the
 * first application sees what Boot applied.
 */
final class ZkLogLevels {

	private static final Log logger = LogFactory.getLog(ZkConfigInitializer.class);

	private static final String PREFIX = "logging.level";

	private final ConfigurableEnvironment environment;

	private final @Nullable LoggingSystem system;

	/** The levels the Environment gave at the last application (at creation: those Boot applied). */
	private Map<String, String> applied;

	ZkLogLevels(ConfigurableEnvironment environment, ClassLoader classLoader) {
		this.environment = environment;
		this.system = loggingSystem(classLoader);
		this.applied = levels();
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

	/** Apply the levels of the given keys (those from ZooKeeper at startup) and of every level that changed. */
	synchronized void applyKeys(Collection<String> keys) {
		Map<String, String> levels = levels();
		Set<String> loggers = new LinkedHashSet<>();
		keys.forEach((key) -> {
			String logger = loggerName(key);
			if (logger != null) {
				loggers.add(logger);
			}
		});
		Set<String> named = new LinkedHashSet<>(this.applied.keySet());
		named.addAll(levels.keySet());
		named.stream().filter((name) -> !Objects.equals(this.applied.get(name), levels.get(name))).forEach(loggers::add);
		this.applied = levels;
		apply(loggers, levels);
	}

	/** Apply the levels of the keys a change touched. */
	void apply(Collection<ZkConfigChange> changes) {
		applyKeys(changes.stream().map(ZkConfigChange::key).toList());
	}

	private Map<String, String> levels() {
		return Binder.get(this.environment).bind(PREFIX, Bindable.mapOf(String.class, String.class)).orElseGet(Map::of);
	}

	private void apply(Set<String> loggers, Map<String, String> levels) {
		if (loggers.isEmpty() || this.system == null) {
			return;
		}
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
		// a {} in the document (a cleared map's marker) names no logger: the changed levels cover it
		if (!key.startsWith(PREFIX) || key.length() <= PREFIX.length() + 1 || key.endsWith(ZnodePropertySource.CLEARED_MAP)) {
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
