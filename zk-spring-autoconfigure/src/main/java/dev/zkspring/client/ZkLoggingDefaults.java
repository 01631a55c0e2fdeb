package dev.zkspring.client;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Quiet defaults for the libraries zk-spring starts, so a healthy start logs nothing at WARN or above and
 * ZooKeeper's client never logs replies (whole configuration documents, as hex) unless asked to: levels in
 * a property source of the lowest precedence, so every {@code logging.level.*} of the application (any
 * source, even its default properties, and any level it sets for an enclosing logger or a
 * {@code logging.group}) wins. {@code logging.level.root} alone does not lift them. Runs after Boot has
 * loaded the application's configuration files and before Boot applies the levels.
 */
final class ZkLoggingDefaults implements EnvironmentPostProcessor, Ordered {

	/** The name of the property source holding the defaults. */
	static final String SOURCE_NAME = "zkSpringLoggingDefaults";

	private static final String PREFIX = "logging.level.";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!environment.getProperty("zk.enabled", Boolean.class, true)) {
			return;
		}
		List<String> chosen = loggersTheApplicationSets(environment);
		Map<String, Object> levels = new LinkedHashMap<>();
		defaults(environment).forEach((logger, level) -> {
			if (!setByTheApplication(logger, chosen)) {
				levels.put(PREFIX + logger, level);
			}
		});
		if (!levels.isEmpty()) {
			environment.getPropertySources().remove(SOURCE_NAME);
			environment.getPropertySources().addLast(new MapPropertySource(SOURCE_NAME, levels));
		}
	}

	@Override
	public int getOrder() {
		// after Boot's ConfigDataEnvironmentPostProcessor, so the application's files are there to be seen
		return Ordered.LOWEST_PRECEDENCE - 10;
	}

	private static Map<String, String> defaults(ConfigurableEnvironment environment) {
		Map<String, String> defaults = new LinkedHashMap<>();
		// the client's banners, and every reply it receives as hex at DEBUG; the embedded server's ~150 lines
		defaults.put("org.apache.zookeeper", "WARN");
		// "maxCnxns is not configured", at every start of the embedded server
		defaults.put("org.apache.zookeeper.server.ServerCnxnFactory", "ERROR");
		// "Starting", "Default schema", "New config event received: {}": zk-spring logs the connection itself
		defaults.put("org.apache.curator", "WARN");
		if (environment.getProperty("zk.quartz.leader-gated", Boolean.class, true)) {
			// Quartz's creation block and each grant's "started": zk-spring logs each start and standby
			defaults.put("org.quartz", "WARN");
			defaults.put("org.springframework.scheduling.quartz", "WARN");
		}
		return defaults;
	}

	/** Logger names (lower case) the application gives a level, groups resolved to their members. */
	private static List<String> loggersTheApplicationSets(ConfigurableEnvironment environment) {
		Binder binder = Binder.get(environment);
		Map<String, String> levels = binder.bind("logging.level", Bindable.mapOf(String.class, String.class))
			.orElse(Map.of());
		Map<String, String[]> groups = binder.bind("logging.group", Bindable.mapOf(String.class, String[].class))
			.orElse(Map.of());
		List<String> loggers = new ArrayList<>();
		for (String name : levels.keySet()) {
			loggers.addAll(groups.containsKey(name) ? List.of(groups.get(name)) : List.of(name));
		}
		return loggers.stream().map((name) -> name.trim().toLowerCase(Locale.ROOT)).toList();
	}

	/** Whether the application sets this logger's level, or an enclosing logger's other than root. */
	private static boolean setByTheApplication(String logger, List<String> chosen) {
		String name = logger.toLowerCase(Locale.ROOT);
		return chosen.stream().anyMatch((set) -> !set.equals("root") && (name.equals(set) || name.startsWith(set + ".")));
	}

}
