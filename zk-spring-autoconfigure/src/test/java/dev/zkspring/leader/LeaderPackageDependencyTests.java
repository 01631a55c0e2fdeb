package dev.zkspring.leader;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The leadership code's parts and the one way their dependencies point, read from the main sources: the
 * term and its records, the election, groups, operators' jobs, the Quartz gate, sharded jobs, and the public
 * entry points that wire them ({@code dev.zkspring.jobs}). Each part may use only the parts before it in
 * {@link #PARTS}, so no two parts use each other, directly or around a circle; {@code PackageCycleTests} checks
 * the same for every package under {@code dev.zkspring}.
 */
class LeaderPackageDependencyTests {

	private static final Path MAIN = Path.of("src/main/java");

	private static final Path LEADER = MAIN.resolve("dev/zkspring/leader");

	/** The package of the public entry points above the parts. */
	private static final Path ENTRY_POINTS = MAIN.resolve("dev/zkspring/jobs");

	/** The parts, each allowed to use only those before it; a new package under the leader finds its place here. */
	static final List<String> PARTS = List.of("term", "election", "group", "jobs", "quartz", "shard", "entry points");

	private static final Pattern QUALIFIED = Pattern
		.compile("\\bdev\\.zkspring\\.(leader((?:\\.[a-z]\\w*)*)|jobs)\\.([A-Z]\\w*)");

	@Test
	void eachPartUsesOnlyThePartsBeforeIt() throws IOException {
		List<String> violations = new ArrayList<>();
		for (Path file : leadershipSources()) {
			String from = partOf(file);
			String code = withoutComments(Files.readString(file));
			for (String used : leaderTypesUsed(code)) {
				String to = partOf(used);
				if (PARTS.indexOf(to) > PARTS.indexOf(from)) {
					violations.add(MAIN.relativize(file) + " (" + from + ") uses " + used + " (" + to + ")");
				}
			}
		}
		assertThat(violations).as("uses against the order " + PARTS).isEmpty();
	}

	@Test
	void everyLeaderPackageHasItsPlaceInTheOrder() throws IOException {
		Set<String> packages = new TreeSet<>();
		for (Path file : leadershipSources()) {
			packages.add(MAIN.relativize(file.getParent()).toString().replace('/', '.'));
		}
		assertThat(packages).as("give a new package its place in PARTS")
			.allSatisfy((pkg) -> assertThat(PARTS).contains(partOfPackage(pkg)));
	}

	@Test
	void nothingOutsideTheLeadershipUsesItsInternalParts() throws IOException {
		List<String> violations = new ArrayList<>();
		for (Path file : sources(MAIN.resolve("dev/zkspring"))) {
			if (file.startsWith(LEADER) || file.startsWith(ENTRY_POINTS)) {
				continue;
			}
			Matcher matcher = QUALIFIED.matcher(withoutComments(Files.readString(file)));
			while (matcher.find()) {
				if (matcher.group(2) != null && !matcher.group(2).isEmpty()) {
					violations.add(MAIN.relativize(file) + " uses " + matcher.group());
				}
			}
		}
		assertThat(violations).as("only the public types of dev.zkspring.leader and dev.zkspring.jobs serve the other packages").isEmpty();
	}

	/** The leadership types a source file names with their package (imports, qualified names). */
	private static Set<String> leaderTypesUsed(String code) {
		Set<String> used = new TreeSet<>();
		Matcher matcher = QUALIFIED.matcher(code);
		while (matcher.find()) {
			used.add(matcher.group());
		}
		return used;
	}

	private static String partOf(Path file) {
		String type = file.getFileName().toString().replace(".java", "");
		String pkg = MAIN.relativize(file.getParent()).toString().replace('/', '.');
		return partOf(pkg + "." + type);
	}

	private static String partOf(String qualifiedType) {
		int last = qualifiedType.lastIndexOf('.');
		String pkg = qualifiedType.substring(0, last);
		return partOfPackage(pkg);
	}

	private static String partOfPackage(String pkg) {
		if (pkg.equals("dev.zkspring.jobs")) {
			return "entry points";
		}
		if (pkg.equals("dev.zkspring.leader")) {
			return "election";
		}
		return pkg.substring("dev.zkspring.leader.".length()).split("\\.")[0];
	}

	/** The sources of the election, its parts and the entry points. */
	private static List<Path> leadershipSources() throws IOException {
		List<Path> sources = new ArrayList<>(sources(LEADER));
		sources.addAll(sources(ENTRY_POINTS));
		return sources;
	}

	private static List<Path> sources(Path root) throws IOException {
		try (Stream<Path> files = Files.walk(root)) {
			return files.filter((file) -> file.toString().endsWith(".java"))
				.filter((file) -> !file.getFileName().toString().equals("package-info.java"))
				.sorted()
				.toList();
		}
	}

	/** The code without comments and string literals, so prose naming a type is no use of it. */
	private static String withoutComments(String source) {
		return source.replaceAll("(?s)/\\*.*?\\*/", " ").replaceAll("//[^\n]*", " ").replaceAll("\"(?:\\\\.|[^\"\\\\])*\"",
				"\"\"");
	}

}
