package dev.zkspring.docs;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every Java snippet of the docs is a region of a source file that the build compiles (issue 30.3): the
 * line before its fence names the file and the region, {@code <!-- snippet: path#tag -->}, and the
 * block's text must be the region's, {@code // tag::tag[]} to {@code // end::tag[]}, without its indent.
 * And the README's test command is exactly what {@code .ci/run} runs.
 */
class DocsSnippetsTests {

	private static final Pattern MARKER = Pattern.compile("^<!-- snippet: (\\S+)#(\\S+) -->$");

	@Test
	void everyJavaSnippetIsATaggedRegionOfACompiledSourceFile() {
		List<String> problems = new ArrayList<>();
		int snippets = 0;
		for (Path page : DocsFiles.pages()) {
			String[] lines = DocsFiles.read(page).split("\n", -1);
			for (int i = 0; i < lines.length; i++) {
				if (!lines[i].equals("```java")) {
					continue;
				}
				snippets++;
				int end = i + 1;
				while (end < lines.length && !lines[end].equals("```")) {
					end++;
				}
				String block = String.join("\n", List.of(lines).subList(i + 1, end));
				String where = DocsFiles.name(page) + ":" + (i + 1) + ": ";
				Matcher marker = MARKER.matcher((i > 0) ? lines[i - 1] : "");
				if (!marker.matches()) {
					problems.add(where + "no <!-- snippet: path#tag --> line before the ```java fence");
				}
				else {
					String problem = compare(marker.group(1), marker.group(2), block);
					if (problem != null) {
						problems.add(where + problem);
					}
				}
				i = end;
			}
		}
		assertThat(snippets).as("Java snippets found").isGreaterThan(10);
		assertThat(problems).as("Java snippets that are not the compiled source they name (copy the region "
				+ "into the page, or fix the source)").isEmpty();
	}

	@Test
	void theReadmesTestCommandIsWhatCiRuns() throws Exception {
		String readme = DocsFiles.read(DocsFiles.root().resolve("README.md"));
		Matcher command = Pattern.compile("Run all tests.*?```bash\\n(.*?)\\n```", Pattern.DOTALL).matcher(readme);
		assertThat(command.find()).as("README's 'Run all tests' command block").isTrue();
		List<String> ci = Files.readAllLines(DocsFiles.root().resolve(".ci/run"));
		List<String> commands = ci.stream().filter((line) -> line.startsWith("mvn ")).toList();
		assertThat(commands).as(".ci/run's test command").containsExactly(command.group(1));
	}

	@Test
	void aRegionIsReadWithoutItsIndent() {
		assertThat(region(List.of("class A {", "\t// tag::x[]", "\tvoid m() {", "\t\tint i;", "\t}", "\t// end::x[]", "}"), "x"))
			.isEqualTo("void m() {\n\tint i;\n}");
	}

	private static String compare(String file, String tag, String block) {
		Path source = DocsFiles.root().resolve(file).normalize();
		if (!file.endsWith(".java") || !file.contains("/src/test/java/") || !Files.exists(source)) {
			return "snippet source " + file + " is not a Java file under some module's src/test/java";
		}
		String region = region(DocsFiles.read(source).lines().toList(), tag);
		if (region == null) {
			return "no region // tag::" + tag + "[] ... // end::" + tag + "[] in " + file;
		}
		if (!region.equals(block.stripTrailing())) {
			return "differs from " + file + "#" + tag + ", which reads:\n" + region;
		}
		return null;
	}

	static String region(List<String> lines, String tag) {
		int start = lines.stream().map(String::trim).toList().indexOf("// tag::" + tag + "[]");
		int end = lines.stream().map(String::trim).toList().indexOf("// end::" + tag + "[]");
		if (start < 0 || end < start) {
			return null;
		}
		List<String> region = lines.subList(start + 1, end);
		int indent = region.stream().filter((line) -> !line.isBlank())
			.mapToInt((line) -> line.length() - line.stripLeading().length()).min().orElse(0);
		List<String> out = new ArrayList<>();
		for (String line : region) {
			out.add(line.isBlank() ? "" : line.substring(indent).stripTrailing());
		}
		return String.join("\n", out).stripTrailing();
	}

}
