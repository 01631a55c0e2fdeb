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
		Map<String, Object> context = new LinkedHashMap<>(Map.of("znode", markup("znode"), "appliedVersion",
				markup("appliedVersion"), "latestVersion", markup("latestVersion"), "status", markup("status"), "reason",
				markup("reason")));
		context.put("canary", Map.of("revision", markup("revision"), "member", true, "status", markup("canary-status"),
				"reason", markup("canary-reason")));
		node.put("config", List.of(context));
		node.put("locks", List.of(Map.of("key", markup("key"), "mode", markup("mode"), "since", NOW - 30_000)));
		node.put("recent", List.of(Map.of("kind", "lock", "label", markup("label"), "start", NOW - 90_000, "end",
				NOW - 80_000)));
		Map<String, Object> unreadable = Map.of("id", markup("unreadable-id"), "unreadable", markup("unreadable"));
		StringBuilder html = new StringBuilder();
		FleetSection.append(html, List.of(node, unreadable), List.of(), "self", true, NOW);
		assertThat(html.toString()).doesNotContain("<i ");
		for (String field : List.of("id", "epoch", "group-epoch", "configSource", "znode", "appliedVersion",
				"latestVersion", "status", "reason", "revision", "canary-status", "canary-reason", "key", "label",
				"unreadable-id", "unreadable")) {
			assertThat(html.toString()).as(field).contains("&lt;i title=&quot;" + field + "&quot;&gt;");
		}
	}

	@Test
	void anInstanceInACanarysSetIsMarkedOnTheTableAndTheTimelineAndTheOthersAreNot() {
		Map<String, Object> member = Map.of("id", "node-2", "config", List.of(Map.of("znode", "/config/orders",
				"appliedVersion", 3, "latestVersion", 3, "status", "CURRENT", "canary",
				Map.of("revision", 7, "member", true, "runsCandidate", true, "status", "CURRENT"))));
		Map<String, Object> other = Map.of("id", "node-1", "config", List.of(Map.of("znode", "/config/orders",
				"appliedVersion", 3, "latestVersion", 3, "status", "CURRENT", "canary",
				Map.of("revision", 7, "member", false, "runsCandidate", false))));
		StringBuilder html = new StringBuilder();
		FleetSection.append(html, List.of(other, member), List.of(), "node-1", true, NOW);
		String page = html.toString();
		assertThat(page).contains("<tr class=\"instance canary\" data-instance=\"node-2\">")
			.contains("<tr class=\"instance\" data-instance=\"node-1\">")
			.contains("canary r7: in the set, <span class=\"current\">CURRENT</span>")
			.contains("canary r7: not in the set, runs the base");
		String timeline = page.substring(page.indexOf("<svg"));
		assertThat(timeline).containsOnlyOnce("<text class=\"canary\"");
		assertThat(timeline.substring(timeline.indexOf("data-instance=\"node-2\""))).contains("canary r7 CURRENT");
	}

	private static String markup(String field) {
		return "<i title=\"" + field + "\">" + field + "</i>";
	}

}
