package dev.zkspring.distcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.fail;

/**
 * The public API of each published module against its committed listing, {@code api/<module>.txt}: a change
 * to a public type or member fails here until the listing is regenerated in the same commit (and the
 * changelog names the change). Regenerate with {@value #REGENERATE}.
 */
class PublicApiTests {

	static final String REGENERATE = "mvn -B -ntp -o -pl dist-check -am test -Dtest=PublicApiTests"
			+ " -Dsurefire.failIfNoSpecifiedTests=false -Dapi.update=true";

	/** The sentence a package-info's Javadoc carries when its package is not public API. */
	static final String INTERNAL_MARK = "This package is internal";

	@ParameterizedTest(name = "{0}")
	@CsvSource({ "zk-spring-autoconfigure, dev.zkspring.client.ZkClientProperties",
			"zk-spring-test, dev.zkspring.test.ZkTestConfig",
			"zk-spring-test-zookeeper, dev.zkspring.test.ZooKeeperExtension",
			"zk-spring-cli, dev.zkspring.cli.ZkSpringCli" })
	void publicApiMatchesTheCommittedListing(String module, String anchor) throws Exception {
		Path root = Path.of(System.getProperty("zkspring.root"));
		Path sources = root.resolve(module).resolve("src/main/java");
		List<String> actual = new ArrayList<>();
		actual.add("# Public API of " + module + ", generated from its compiled classes by dist-check's PublicApiTests.");
		actual.add("# Regenerate (and name the change in CHANGELOG.md): " + REGENERATE);
		actual.addAll(ApiListing.of(Class.forName(anchor), (pkg) -> isInternal(sources, pkg)));
		Path listing = root.resolve("api").resolve(module + ".txt");
		if (Boolean.getBoolean("api.update")) {
			Files.createDirectories(listing.getParent());
			Files.write(listing, actual, StandardCharsets.UTF_8);
			return;
		}
		List<String> committed = Files.exists(listing) ? Files.readAllLines(listing, StandardCharsets.UTF_8) : List.of();
		if (!committed.equals(actual)) {
			fail("The public API of " + module + " differs from " + root.relativize(listing) + " (- listed, + compiled):\n"
					+ diff(committed, actual) + "\nIf the change is intended, regenerate the listing with\n  " + REGENERATE
					+ "\nand name the change in CHANGELOG.md (docs/versioning.md says which version it needs).");
		}
	}

	static boolean isInternal(Path sources, String pkg) {
		Path packageInfo = sources.resolve(pkg.replace('.', '/')).resolve("package-info.java");
		try {
			return Files.exists(packageInfo) && Files.readString(packageInfo).contains(INTERNAL_MARK);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot read " + packageInfo, ex);
		}
	}

	private static String diff(List<String> committed, List<String> actual) {
		Set<String> removed = new LinkedHashSet<>(committed);
		actual.forEach(removed::remove);
		Set<String> added = new LinkedHashSet<>(actual);
		committed.forEach(added::remove);
		StringBuilder diff = new StringBuilder();
		removed.forEach((line) -> diff.append("- ").append(line).append('\n'));
		added.forEach((line) -> diff.append("+ ").append(line).append('\n'));
		return diff.isEmpty() ? "(same lines, in another order)\n" : diff.toString();
	}

}
