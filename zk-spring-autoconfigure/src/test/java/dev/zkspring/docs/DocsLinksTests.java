package dev.zkspring.docs;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every relative link of README.md and docs/*.md leads to a file of the repository, and every
 * {@code #anchor} to a heading of the page it names, as GitHub renders them (issue 30.3).
 */
class DocsLinksTests {

	/** {@code [text](target)} and {@code ![alt](target)}, target up to a space or the closing parenthesis. */
	private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

	@Test
	void everyRelativeLinkAndAnchorResolves() {
		List<String> broken = new ArrayList<>();
		int checked = 0;
		for (Path page : DocsFiles.pages()) {
			String prose = DocsFiles.prose(DocsFiles.read(page));
			Matcher link = LINK.matcher(prose);
			while (link.find()) {
				String target = link.group(1);
				if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
					continue; // http:, https:, mailto: - not this repository's
				}
				checked++;
				String problem = problem(page, target);
				if (problem != null) {
					int line = prose.substring(0, link.start()).split("\n", -1).length;
					broken.add(DocsFiles.name(page) + ":" + line + ": " + target + " - " + problem);
				}
			}
		}
		assertThat(checked).as("relative links found").isGreaterThan(20);
		assertThat(broken).as("links that do not resolve (fix the link, or the heading it names)").isEmpty();
	}

	@Test
	void anchorsFollowGitHubsRules() {
		assertThat(MarkdownAnchors.slug("The fleet view: `/actuator/zookeeper/fleet`"))
			.isEqualTo("the-fleet-view-actuatorzookeeperfleet");
		assertThat(MarkdownAnchors.slug("Two ways to load: the initializer (default) or `spring.config.import=zk:`"))
			.isEqualTo("two-ways-to-load-the-initializer-default-or-springconfigimportzk");
		assertThat(MarkdownAnchors.of("# A\n## A\n```\n# not a heading\n```\n### A b\n")).containsExactly("a", "a-1", "a-b");
	}

	private static String problem(Path page, String target) {
		int hash = target.indexOf('#');
		String path = URLDecoder.decode((hash >= 0) ? target.substring(0, hash) : target, StandardCharsets.UTF_8);
		String anchor = (hash >= 0) ? target.substring(hash + 1) : null;
		Path file = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
		if (!file.startsWith(DocsFiles.root())) {
			return "outside the repository";
		}
		if (!Files.exists(file)) {
			return "no such file " + DocsFiles.name(file);
		}
		if (anchor != null && file.toString().endsWith(".md")
				&& !MarkdownAnchors.of(DocsFiles.read(file)).contains(anchor)) {
			return "no heading with anchor #" + anchor + " in " + DocsFiles.name(file);
		}
		return null;
	}

}
