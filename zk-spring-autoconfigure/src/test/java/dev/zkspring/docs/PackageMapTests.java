package dev.zkspring.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The package map of {@code CONTRIBUTING.md} against the code: one line for each package of this module
 * that holds code, and no line for a package that does not exist.
 */
class PackageMapTests {

	private static final Pattern MAP_LINE = Pattern.compile("(?m)^\\| `(dev\\.zkspring[\\w.]*)` \\|");

	@Test
	void contributingMapsEveryPackageOfTheModule() throws IOException {
		Set<String> mapped = new TreeSet<>();
		Matcher matcher = MAP_LINE.matcher(DocsFiles.read(DocsFiles.root().resolve("CONTRIBUTING.md")));
		while (matcher.find()) {
			mapped.add(matcher.group(1));
		}
		Path main = DocsFiles.root().resolve("zk-spring-autoconfigure/src/main/java");
		Set<String> packages = new TreeSet<>();
		try (Stream<Path> files = Files.walk(main.resolve("dev/zkspring"))) {
			files.filter((file) -> file.toString().endsWith(".java"))
				.filter((file) -> !file.getFileName().toString().equals("package-info.java"))
				.forEach((file) -> packages.add(main.relativize(file.getParent()).toString().replace('/', '.')));
		}
		assertThat(mapped).as("the packages CONTRIBUTING.md maps").isEqualTo(packages);
	}

}
