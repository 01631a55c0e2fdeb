package dev.zkspring.client;

import org.jspecify.annotations.Nullable;

import org.springframework.context.aot.AbstractAotProcessor;
import org.springframework.context.support.DefaultLifecycleProcessor;
import org.springframework.core.SpringProperties;

/**
 * Tells the runs that must neither connect to ZooKeeper nor wait for it: Spring's build-time AOT
 * processing ({@code spring.aot.processing}, set by Boot's {@code process-aot}), which only records bean
 * definitions, and a CDS training run ({@code spring.context.exit=onRefresh}), which exits as soon as the
 * context is refreshed. In both, no configuration is read from ZooKeeper: an AOT build fixes bean
 * definitions, not property values, and a training run serves nothing.
 */
public final class RunWithoutZooKeeper {

	private RunWithoutZooKeeper() {
	}

	/**
	 * Why this JVM runs without ZooKeeper, or {@code null} for a normal run.
	 * @return a phrase naming the property that says so, for a log line
	 */
	public static @Nullable String reason() {
		if (SpringProperties.getFlag(AbstractAotProcessor.AOT_PROCESSING)) {
			return "this is Spring's AOT processing at build time (" + AbstractAotProcessor.AOT_PROCESSING + "=true)";
		}
		String exit = SpringProperties.getProperty(DefaultLifecycleProcessor.EXIT_PROPERTY_NAME);
		if (DefaultLifecycleProcessor.ON_REFRESH_VALUE.equalsIgnoreCase(exit)) {
			return "this is a training run that exits once the context is refreshed ("
					+ DefaultLifecycleProcessor.EXIT_PROPERTY_NAME + "=" + exit + ", as for a CDS archive)";
		}
		return null;
	}

}
