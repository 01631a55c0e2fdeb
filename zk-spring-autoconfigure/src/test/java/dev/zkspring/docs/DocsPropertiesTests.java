package dev.zkspring.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The docs name only properties that exist, and the property table is exactly what the configuration
 * metadata holds (issue 30.3): a property renamed or removed in the code fails here until the docs follow.
 */
class DocsPropertiesTests {

	/** A {@code zk.} name as the docs write it; not one followed by {@code (} (a method of a variable {@code zk}). */
	private static final Pattern NAME = Pattern.compile("(?<![\\w./$-])zk\\.[a-z0-9][a-z0-9.<>*\\[\\]-]*(?![\\w(])");

	private static final Path PAGE = DocsFiles.root().resolve("docs/properties.md");

	@Test
	void everyZkPropertyNamedInTheDocsExistsInTheMetadata() {
		List<ConfigurationMetadata.Property> properties = ConfigurationMetadata.properties();
		List<String> other = ConfigurationMetadata.otherNames();
		List<String> unknown = new ArrayList<>();
		int named = 0;
		for (Path page : DocsFiles.pages()) {
			String[] lines = DocsFiles.read(page).split("\n", -1);
			for (int i = 0; i < lines.length; i++) {
				Matcher name = NAME.matcher(lines[i]);
				while (name.find()) {
					String found = name.group().replaceAll("[.-]+$", "");
					if (found.endsWith("]") && !found.contains("[")) {
						// a name in Boot's bracket notation for a map key: "[zk.lock.acquisition]"
						found = found.substring(0, found.length() - 1);
					}
					named++;
					if (!other.contains(found) && !ConfigurationMetadata.names(properties, found)) {
						unknown.add(DocsFiles.name(page) + ":" + (i + 1) + ": " + found);
					}
				}
			}
		}
		assertThat(named).as("zk.* names found in the docs").isGreaterThan(100);
		assertThat(unknown).as("zk.* names in the docs that are no property in %s (nor a meter of ZkMetrics): "
				+ "fix the name, or add the property to its capability's properties class with a one-line Javadoc", ConfigurationMetadata.FILE)
			.isEmpty();
	}

	@Test
	void thePropertyTableIsWhatTheMetadataHolds() throws Exception {
		String generated = PropertiesPage.render(ConfigurationMetadata.properties());
		if (Boolean.getBoolean("zkspring.docs.regenerate")) {
			Files.writeString(PAGE, generated);
		}
		String page = Files.exists(PAGE) ? Files.readString(PAGE) : "";
		assertThat(page).as("docs/properties.md differs from the configuration metadata; regenerate it with%n  %s%n",
				PropertiesPage.REGENERATE).isEqualTo(generated);
	}

	/** A row of a topic page's property table: {@code | `zk.name` | `default` | ...}. */
	private static final Pattern TABLE_ROW = Pattern.compile("^\\| `(zk\\.[^`]+)` \\| `([^`]+)` \\|");

	@Test
	void defaultsInTheTopicPagesTablesAreTheMetadatasDefaults() {
		Map<String, Object> defaults = new HashMap<>();
		ConfigurationMetadata.properties().stream().filter((property) -> property.defaultValue() != null)
			.forEach((property) -> defaults.put(property.name(), property.defaultValue()));
		List<String> differing = new ArrayList<>();
		for (Path page : DocsFiles.pages()) {
			if (page.equals(PAGE)) {
				continue;
			}
			String[] lines = DocsFiles.read(page).split("\n", -1);
			for (int i = 0; i < lines.length; i++) {
				Matcher row = TABLE_ROW.matcher(lines[i]);
				if (row.find() && defaults.containsKey(row.group(1))
						&& !zeroless(row.group(2)).equals(zeroless(String.valueOf(defaults.get(row.group(1)))))) {
					differing.add(DocsFiles.name(page) + ":" + (i + 1) + ": " + row.group(1) + " says `" + row.group(2)
							+ "`, the metadata `" + defaults.get(row.group(1)) + "`");
				}
			}
		}
		assertThat(differing).as("defaults in the docs' tables that are not the property's default").isEmpty();
	}

	/** {@code 0s}, {@code 0ms} and {@code 0} are one duration. */
	private static String zeroless(String value) {
		return value.matches("0[a-z]*") ? "0" : value;
	}

	@Test
	void namesOfMapEntriesWildcardsAndGroupsAreAllowedByPattern() {
		List<ConfigurationMetadata.Property> properties = List.of(
				new ConfigurationMetadata.Property("zk.quartz.jobs", "java.util.Map<java.lang.String,Job>", "", null, false),
				new ConfigurationMetadata.Property("zk.ssl.key-store", "java.lang.String", "", null, false));
		assertThat(ConfigurationMetadata.names(properties, "zk.quartz.jobs.<job>.cron")).isTrue();
		assertThat(ConfigurationMetadata.names(properties, "zk.ssl.*")).isTrue();
		assertThat(ConfigurationMetadata.names(properties, "zk.ssl")).isTrue();
		assertThat(ConfigurationMetadata.names(properties, "zk.ssl.key-stor")).isFalse();
		assertThat(ConfigurationMetadata.names(properties, "zk.quartz.job")).isFalse();
	}

}
