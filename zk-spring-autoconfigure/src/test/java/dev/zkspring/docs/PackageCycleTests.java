package dev.zkspring.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No two Java packages under {@code dev.zkspring} use each other, directly or around a circle, in the main
 * sources of the published modules: CONTRIBUTING.md's "dependencies point one way" at the level of packages,
 * not only of the leadership's parts ({@code LeaderPackageDependencyTests} checks their order). A package uses
 * another when one of its files imports a type of it (or names it with its package) outside comments.
 */
class PackageCycleTests {

	static final List<String> MODULES = List.of("zk-spring-autoconfigure", "zk-spring-test-zookeeper", "zk-spring-test",
			"zk-spring-cli");

	/** A type named with its package: the package is the run of lower-case segments before the type's name. */
	private static final Pattern QUALIFIED = Pattern.compile("\\b(dev\\.zkspring(?:\\.[a-z]\\w*)*)\\.(?:[A-Z]\\w*|\\*)");

	private static final Pattern PACKAGE = Pattern.compile("(?m)^package\\s+([\\w.]+)\\s*;");

	@Test
	void noPackageUsesAnotherThatUsesItBack() throws IOException {
		Map<String, Map<String, String>> uses = uses();
		assertThat(uses).as("the main sources were found").containsKey("dev.zkspring.leader");
		assertThat(cycles(uses)).as("packages using each other, with a file for each use").isEmpty();
	}

	/** Each package's uses of other dev.zkspring packages, each with a file that makes it. */
	static Map<String, Map<String, String>> uses() throws IOException {
		Map<String, Map<String, String>> uses = new TreeMap<>();
		for (String module : MODULES) {
			Path main = DocsFiles.root().resolve(module).resolve("src/main/java");
			if (!Files.isDirectory(main)) {
				continue;
			}
			try (Stream<Path> files = Files.walk(main)) {
				for (Path file : files.filter((path) -> path.toString().endsWith(".java")).sorted().toList()) {
					String source = Files.readString(file);
					Matcher declared = PACKAGE.matcher(source);
					if (!declared.find()) {
						continue;
					}
					String from = declared.group(1);
					Map<String, String> used = uses.computeIfAbsent(from, (key) -> new TreeMap<>());
					Matcher named = QUALIFIED.matcher(withoutComments(source));
					while (named.find()) {
						if (!named.group(1).equals(from)) {
							used.putIfAbsent(named.group(1), DocsFiles.root().relativize(file).toString());
						}
					}
				}
			}
		}
		return uses;
	}

	/** Each group of two or more packages that reach each other (Tarjan's components), with its uses. */
	static List<String> cycles(Map<String, Map<String, String>> uses) {
		List<String> cycles = new ArrayList<>();
		for (Set<String> component : new Components(uses).found) {
			if (component.size() < 2) {
				continue;
			}
			StringBuilder cycle = new StringBuilder(component.toString()).append(':');
			for (String from : component) {
				uses.getOrDefault(from, Map.of()).forEach((to, file) -> {
					if (component.contains(to)) {
						cycle.append("\n  ").append(from).append(" -> ").append(to).append(" (").append(file).append(')');
					}
				});
			}
			cycles.add(cycle.toString());
		}
		return cycles;
	}

	/** The code without comments and string literals, so prose naming a type is no use of it. */
	static String withoutComments(String source) {
		return source.replaceAll("(?s)/\\*.*?\\*/", " ")
			.replaceAll("//[^\n]*", " ")
			.replaceAll("\"(?:\\\\.|[^\"\\\\])*\"", "\"\"");
	}

	/** Tarjan's strongly connected components of the use graph. */
	private static final class Components {

		private final Map<String, Map<String, String>> uses;

		private final Map<String, Integer> index = new HashMap<>();

		private final Map<String, Integer> low = new HashMap<>();

		private final Deque<String> stack = new ArrayDeque<>();

		private final Set<String> onStack = new TreeSet<>();

		private final List<Set<String>> found = new ArrayList<>();

		Components(Map<String, Map<String, String>> uses) {
			this.uses = uses;
			for (String pkg : uses.keySet()) {
				if (!this.index.containsKey(pkg)) {
					visit(pkg);
				}
			}
		}

		private void visit(String pkg) {
			this.index.put(pkg, this.index.size());
			this.low.put(pkg, this.index.get(pkg));
			this.stack.push(pkg);
			this.onStack.add(pkg);
			for (String to : this.uses.getOrDefault(pkg, Map.of()).keySet()) {
				if (!this.index.containsKey(to)) {
					visit(to);
					this.low.put(pkg, Math.min(this.low.get(pkg), this.low.get(to)));
				}
				else if (this.onStack.contains(to)) {
					this.low.put(pkg, Math.min(this.low.get(pkg), this.index.get(to)));
				}
			}
			if (this.low.get(pkg).equals(this.index.get(pkg))) {
				Set<String> component = new TreeSet<>();
				String member;
				do {
					member = this.stack.pop();
					this.onStack.remove(member);
					component.add(member);
				}
				while (!member.equals(pkg));
				this.found.add(component);
			}
		}

	}

}
