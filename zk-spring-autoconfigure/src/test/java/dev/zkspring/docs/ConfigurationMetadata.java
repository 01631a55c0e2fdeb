package dev.zkspring.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The configuration metadata this module's build generates (the configuration processor, plus
 * {@code additional-spring-configuration-metadata.json}): the one list of properties the docs may name.
 */
final class ConfigurationMetadata {

	static final Path FILE = Path.of(System.getProperty("basedir", "."))
		.resolve("target/classes/META-INF/spring-configuration-metadata.json");

	/** Names the library uses beside its properties: meters, observations, and the job data key of the epoch. */
	private static final List<Path> OTHER_NAMES = List.of(Path.of("src/main/java/dev/zkspring/actuate/ZkMetrics.java"),
			Path.of("src/main/java/dev/zkspring/actuate/ZkRequestMetrics.java"),
			Path.of("src/main/java/dev/zkspring/observation/DefaultZkLockAcquisitionConvention.java"),
			Path.of("src/main/java/dev/zkspring/observation/DefaultZkLockHoldConvention.java"),
			Path.of("src/main/java/dev/zkspring/observation/DefaultZkJobRunConvention.java"),
			Path.of("src/main/java/dev/zkspring/observation/DefaultZkLeaderOnlyConvention.java"),
			Path.of("src/main/java/dev/zkspring/observation/DefaultZkLeadershipTermConvention.java"),
			Path.of("src/main/java/dev/zkspring/observation/DefaultZkRefreshConvention.java"),
			Path.of("src/main/java/dev/zkspring/observation/DefaultZkPublishConvention.java"),
			Path.of("src/main/java/dev/zkspring/observation/ZkObservationDocumentation.java"),
			Path.of("src/main/java/dev/zkspring/leader/LeaderJobs.java"), Path.of("src/main/java/dev/zkspring/leader/ShardContext.java"),
			Path.of("src/main/java/dev/zkspring/autoconfigure/ZkCrashDetectionAutoConfiguration.java"));

	private static final Pattern LITERAL = Pattern.compile("\"(zk\\.[a-z0-9.-]+)\"");

	private ConfigurationMetadata() {
	}

	/** One property: name, type (may be null), description and default as the metadata spell them. */
	record Property(String name, String type, String description, Object defaultValue, boolean deprecated) {
	}

	static List<Property> properties() {
		Map<String, Object> metadata;
		try {
			metadata = JsonMapper.builder().build().readValue(Files.readString(FILE), new TypeReference<>() { });
		}
		catch (IOException ex) {
			throw new UncheckedIOException("No configuration metadata at " + FILE + ": compile the module first", ex);
		}
		List<Property> properties = new ArrayList<>();
		for (Object entry : (List<?>) metadata.get("properties")) {
			Map<?, ?> property = (Map<?, ?>) entry;
			properties.add(new Property((String) property.get("name"), (String) property.get("type"),
					(String) property.get("description"), property.get("defaultValue"), property.containsKey("deprecation")));
		}
		properties.sort(Comparator.comparing(Property::name));
		return properties;
	}

	/** Meter names and other {@code zk.} names of the library that are not properties, read from its sources. */
	static List<String> otherNames() {
		List<String> names = new ArrayList<>();
		Path module = Path.of(System.getProperty("basedir", "."));
		for (Path source : OTHER_NAMES) {
			try {
				Matcher literal = LITERAL.matcher(Files.readString(module.resolve(source)));
				while (literal.find()) {
					names.add(literal.group(1));
				}
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return names;
	}

	/**
	 * Whether a name in the docs is a property of the metadata: the name itself; a prefix written as
	 * {@code zk.ssl.*} or as a group ({@code zk.retry}); or an entry of a map property, with the key
	 * written as a placeholder or an example ({@code zk.quartz.jobs.<job>.cron}).
	 */
	static boolean names(List<Property> properties, String name) {
		String prefix = name.endsWith(".*") ? name.substring(0, name.length() - 2) : name;
		for (Property property : properties) {
			String known = property.name();
			if (known.equals(name) || known.startsWith(prefix + ".")) {
				return true;
			}
			boolean map = property.type() != null && property.type().startsWith("java.util.Map<");
			if (map && (name.startsWith(known + ".") || name.startsWith(known + "["))) {
				return true;
			}
		}
		return false;
	}

}
