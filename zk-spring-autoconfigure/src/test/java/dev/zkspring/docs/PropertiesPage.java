package dev.zkspring.docs;

import java.util.List;

/**
 * Writes {@code docs/properties.md} from the configuration metadata: one row per property, so the
 * table cannot drift from what the application binds (issue 30.2).
 */
final class PropertiesPage {

	static final String REGENERATE = "mvn -B -ntp -pl zk-spring-autoconfigure -am test -Dtest=DocsPropertiesTests "
			+ "-Dsurefire.failIfNoSpecifiedTests=false -Dzkspring.docs.regenerate=true";

	private PropertiesPage() {
	}

	static String render(List<ConfigurationMetadata.Property> properties) {
		StringBuilder page = new StringBuilder();
		page.append("# Properties\n\n");
		page.append("Set these in `application.yml` (or anywhere Spring Boot reads properties) to configure zk-spring.\n");
		page.append("Every property the starter binds is here, generated from the configuration metadata in the jar\n");
		page.append("(the same file IDEs complete from). Durations take Spring's forms (`500ms`, `10s`, `PT1M`), sizes\n");
		page.append("`512KB` or `1MB`. Each topic page says what the properties of its part do.\n\n");
		page.append("<!-- Generated from zk-spring-autoconfigure/target/classes/META-INF/spring-configuration-metadata.json;\n");
		page.append("     do not edit by hand. Regenerate with:\n     ").append(REGENERATE).append(" -->\n\n");
		page.append("| property | type | default | meaning |\n|---|---|---|---|\n");
		for (ConfigurationMetadata.Property property : properties) {
			page.append("| `").append(property.name()).append("` | ").append(type(property.type())).append(" | ")
				.append((property.defaultValue() != null) ? "`" + value(property.defaultValue()) + "`" : "—").append(" | ")
				.append(property.deprecated() ? "Deprecated. " : "")
				.append(cell((property.description() != null) ? property.description() : "")).append(" |\n");
		}
		page.append("\nThe `zookeeper` actuator endpoint also reads `management.endpoint.zookeeper.show-values` and\n");
		page.append("`management.endpoint.zookeeper.roles`, as Boot's endpoints do\n");
		page.append("([the `zookeeper` endpoint](operations.md#the-zookeeper-endpoint)).\n");
		page.append("\n## Limits\n\n");
		page.append("Values from ZooKeeper documents cannot switch these: zk-spring reads its own properties from\n");
		page.append("`application.yml`, the command line, system properties and the environment before it connects.\n");
		page.append("An invalid value fails the startup naming the property and the expected form\n");
		page.append("([when startup fails](troubleshooting.md#when-startup-fails)).\n");
		return page.toString();
	}

	private static String type(String type) {
		if (type == null) {
			return "—";
		}
		String simple = type.replaceAll("([a-z][a-z0-9_]*\\.)+", "").replace('$', '.');
		return "`" + simple.replace("|", "\\|") + "`";
	}

	private static String value(Object value) {
		return (value instanceof List<?> list) ? String.join(",", list.stream().map(String::valueOf).toList())
				: String.valueOf(value);
	}

	private static String cell(String text) {
		return text.replace("|", "\\|").replace("\n", " ");
	}

}
