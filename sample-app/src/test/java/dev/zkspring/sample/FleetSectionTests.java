package dev.zkspring.sample;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status page's fleet section shows what any client may write into a fleet node (issue 25.3): markup
 * in every field of a node, and in an unreadable node's name, comes out as text, never as markup.
 */
class FleetSectionTests {

	private static final long NOW = 1_800_000_000_000L;

	@Test
	void markupInEveryFieldOfAFleetNodeIsShownAsText() {
		Map<String, Object> node = new LinkedHashMap<>();
		node.put("id", markup("id"));
		node.put("leader", true);
		node.put("epoch", markup("epoch"));
		node.put("leadership", List.of(Map.of("group", markup("group"), "leader", true, "epoch", markup("group-epoch"),
				"since", NOW - 60_000)));
		node.put("configSource", markup("configSource"));
		node.put("config", List.of(Map.of("znode", markup("znode"), "appliedVersion", markup("appliedVersion"),
				"latestVersion", markup("latestVersion"), "status", markup("status"), "reason", markup("reason"))));
		node.put("locks", List.of(Map.of("key", markup("key"), "mode", markup("mode"), "since", NOW - 30_000)));
		node.put("recent", List.of(Map.of("kind", "lock", "label", markup("label"), "start", NOW - 90_000, "end",
				NOW - 80_000)));
		Map<String, Object> unreadable = Map.of("id", markup("unreadable-id"), "unreadable", markup("unreadable"));
		StringBuilder html = new StringBuilder();
		FleetSection.append(html, List.of(node, unreadable), List.of(), "self", true, NOW);
		assertThat(html.toString()).doesNotContain("<i ");
		for (String field : List.of("id", "epoch", "group-epoch", "configSource", "znode", "appliedVersion",
				"latestVersion", "status", "reason", "key", "label", "unreadable-id", "unreadable")) {
			assertThat(html.toString()).as(field).contains("&lt;i title=&quot;" + field + "&quot;&gt;");
		}
	}

	private static String markup(String field) {
		return "<i title=\"" + field + "\">" + field + "</i>";
	}

}
