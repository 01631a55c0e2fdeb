package dev.zkspring.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shaded jar says what it bundles: META-INF/THIRD-PARTY.txt lists exactly the artifacts shaded into it
 * (maven-dependency-plugin's runtime list, written at prepare-package), each with a licence; META-INF/LICENSE
 * is zk-spring's and META-INF/NOTICE carries zk-spring's notice with the bundled ones.
 */
class ThirdPartyLicencesIT {

	private final Path jarPath = Path.of(System.getProperty("cli.jar"));

	@Test
	void thirdPartyListNamesExactlyTheBundledArtifactsEachWithALicence() throws IOException {
		Set<String> bundled = new TreeSet<>();
		for (String line : Files.readAllLines(this.jarPath.resolveSibling("bundled-artifacts.txt"))) {
			String coordinates = line.strip().split(" ")[0];
			String[] parts = coordinates.split(":");
			if (parts.length == 5) { // group:artifact:type:version:scope
				bundled.add(parts[0] + ":" + parts[1] + ":" + parts[3]);
			}
			else if (parts.length == 6) { // group:artifact:type:classifier:version:scope
				bundled.add(parts[0] + ":" + parts[1] + ":" + parts[4] + ":" + parts[3]);
			}
		}
		assertThat(bundled).as("artifacts bundled").isNotEmpty();
		Set<String> listed = new TreeSet<>();
		Set<String> inside = new TreeSet<>();
		try (JarFile jar = new JarFile(this.jarPath.toFile())) {
			String thirdParty = read(jar, "META-INF/THIRD-PARTY.txt");
			for (String line : thirdParty.split("\n")) {
				String[] columns = line.split(" \\| ");
				if (columns.length == 2 && columns[0].chars().filter((c) -> c == ':').count() >= 2) {
					assertThat(columns[1].strip()).as("licence of " + columns[0]).isNotEmpty();
					(columns[1].contains("(inside ") ? inside : listed).add(columns[0].strip());
				}
			}
			assertThat(listed)
				.as("META-INF/THIRD-PARTY.txt (zk-spring-cli/src/main/shade/THIRD-PARTY.txt) against the bundled artifacts")
				.containsExactlyElementsOf(bundled);
			Set<String> listedWithoutClassifier = new TreeSet<>();
			listed.forEach((artifact) -> listedWithoutClassifier.add(String.join(":", List.of(artifact.split(":")).subList(0, 3))));
			for (JarEntry entry : Collections.list(jar.entries())) {
				if (entry.getName().startsWith("META-INF/maven/") && entry.getName().endsWith("/pom.properties")) {
					Properties pom = new Properties();
					try (InputStream in = jar.getInputStream(entry)) {
						pom.load(in);
					}
					String artifact = pom.getProperty("groupId") + ":" + pom.getProperty("artifactId") + ":"
							+ pom.getProperty("version");
					if (!artifact.startsWith("dev.zkspring:") && !inside.contains(artifact)) {
						assertThat(listedWithoutClassifier).as("a bundled artifact's pom.properties").contains(artifact);
					}
				}
			}
		}
	}

	@Test
	void licenceIsZkSpringsAndNoticeCarriesZkSpringsWithTheBundledOnes() throws IOException {
		String licence = Files.readString(Path.of(System.getProperty("user.dir")).resolveSibling("LICENSE"));
		try (JarFile jar = new JarFile(this.jarPath.toFile())) {
			assertThat(read(jar, "META-INF/LICENSE")).isEqualTo(licence);
			assertThat(read(jar, "META-INF/NOTICE")).contains("zk-spring").contains("Curator Framework");
		}
	}

	private static String read(JarFile jar, String name) throws IOException {
		JarEntry entry = jar.getJarEntry(name);
		assertThat(entry).as(name + " in " + jar.getName()).isNotNull();
		try (InputStream in = jar.getInputStream(entry)) {
			return new String(in.readAllBytes(), StandardCharsets.UTF_8);
		}
	}

}
