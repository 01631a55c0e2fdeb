package dev.zkspring.docs;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The anchors GitHub gives a page's headings: the heading's text in lower case, without markup and
 * punctuation (letters, digits, {@code _}, {@code -} and spaces stay), spaces turned into {@code -};
 * a repeated heading gets {@code -1}, {@code -2}... in order.
 */
final class MarkdownAnchors {

	private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

	private static final Pattern LINK = Pattern.compile("\\[([^\\]]*)\\]\\([^)]*\\)");

	private MarkdownAnchors() {
	}

	static Set<String> of(String markdown) {
		Set<String> anchors = new LinkedHashSet<>();
		Map<String, Integer> seen = new HashMap<>();
		for (String line : DocsFiles.prose(markdown).split("\n")) {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String slug = slug(heading.group(1));
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
		}
		return anchors;
	}

	static String slug(String heading) {
		String text = LINK.matcher(heading).replaceAll("$1");
		StringBuilder slug = new StringBuilder();
		text.toLowerCase(Locale.ROOT).codePoints().forEach((c) -> {
			if (Character.isLetterOrDigit(c) || c == '_' || c == '-') {
				slug.appendCodePoint(c);
			}
			else if (c == ' ') {
				slug.append('-');
			}
		});
		return slug.toString();
	}

}
