package dev.zkspring.sample;

import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

import org.springframework.web.util.HtmlUtils;

/** The status page's fleet table (from every instance's fleet node) and its timeline. */
final class FleetSection {

	/** CSS classes of the statuses an instance writes; any other text gets none. */
	private static final Map<String, String> STYLED = Map.of("CURRENT", "current", "REFUSED", "refused", "PENDING",
			"pending");

	private FleetSection() {
	}

	@SuppressWarnings("unchecked")
	static void append(StringBuilder html, List<Map<String, Object>> fleet, List<Map<String, Object>> jobRuns,
			String self, boolean connected, long now) {
		html.append("<h2>Fleet (<a href=\"/actuator/zookeeper/fleet\">/actuator/zookeeper/fleet</a>)</h2>");
		html.append("<table id=\"fleet\"><tr><th>instance</th><th>connected</th><th>leads</th><th>epoch</th>")
			.append("<th>documents read from</th><th>configuration (applied / latest version, status)</th>")
			.append("<th>keys held</th></tr>");
		for (Map<String, Object> instance : fleet) {
			String id = String.valueOf(instance.get("id"));
			if (instance.containsKey("gone")) {
				continue; // no node any more: the timeline keeps its lane, greyed
			}
			if (instance.containsKey("unreadable")) {
				// a node some other client wrote: its name and why it is not shown
				html.append("<tr class=\"unreadable\" data-instance=\"").append(escape(id)).append("\"><td>")
					.append(escape(id)).append("</td><td colspan=\"6\">unreadable: ").append(escape(instance.get("unreadable")))
					.append("</td></tr>");
				continue;
			}
			boolean stale = Boolean.TRUE.equals(instance.get("stale"));
			String live = id.equals(self) ? (connected ? "yes" : "no")
					: stale ? "unknown (this instance is not connected)" : "yes (its session is live)";
			boolean leads = Boolean.TRUE.equals(instance.get("leader"));
			StringJoiner config = new StringJoiner("<br>");
			for (Map<String, Object> context : (List<Map<String, Object>>) instance.getOrDefault("config", List.of())) {
				String status = String.valueOf(context.get("status"));
				config.add(escape(context.get("znode")) + " v" + escape(context.get("appliedVersion")) + " / v"
						+ escape(context.get("latestVersion")) + " <span class=\"" + STYLED.getOrDefault(status, "")
						+ "\">" + escape(status) + "</span>"
						+ ((context.get("reason") != null) ? ": " + escape(context.get("reason")) : "")
						+ canaryCell(context.get("canary")));
			}
			StringJoiner keys = new StringJoiner(", ");
			for (Map<String, Object> lock : (List<Map<String, Object>>) instance.getOrDefault("locks", List.of())) {
				keys.add(escape(lock.get("key")));
			}
			String canary = canaryMark(instance);
			html.append("<tr class=\"instance").append(canary.isEmpty() ? "" : " canary").append("\" data-instance=\"")
				.append(escape(id)).append("\"><td>").append(escape(id))
				.append(id.equals(self) ? " (this one)" : "")
				.append(canary.isEmpty() ? "" : " <span class=\"canary\">" + escape(canary) + "</span>")
				.append("</td><td class=\"")
				.append(live.startsWith("yes") ? "yes" : "no").append("\">").append(live).append("</td><td class=\"")
				.append(leads ? "yes" : "").append("\">").append(leads ? "yes" : "no").append("</td><td>")
				.append(escape(instance.getOrDefault("epoch", ""))).append("</td><td>")
				.append(escape(instance.getOrDefault("configSource", ""))).append("</td><td>").append(config)
				.append("</td><td>").append(keys).append("</td></tr>");
		}
		if (fleet.isEmpty()) {
			html.append("<tr><td colspan=\"7\">no fleet node readable yet</td></tr>");
		}
		html.append("</table>");
		html.append("<h2>The last three minutes</h2>");
		html.append(FleetTimeline.svg(fleet, jobRuns, self, now));
	}

	/**
	 * What marks an instance in a canary's set, such as {@code canary r7 CURRENT}; empty for the others.
	 * @param instance one instance's fleet node content
	 */
	@SuppressWarnings("unchecked")
	static String canaryMark(Map<String, Object> instance) {
		StringJoiner marks = new StringJoiner(", ");
		for (Map<String, Object> context : (List<Map<String, Object>>) instance.getOrDefault("config", List.of())) {
			if (context.get("canary") instanceof Map<?, ?> canary && Boolean.TRUE.equals(canary.get("member"))) {
				marks.add("canary r" + canary.get("revision") + " " + canary.get("status"));
			}
		}
		return marks.toString();
	}

	private static String canaryCell(Object canary) {
		if (!(canary instanceof Map<?, ?> described)) {
			return "";
		}
		String status = String.valueOf(described.get("status"));
		return "<br><span class=\"canary\">canary r" + escape(described.get("revision"))
				+ (Boolean.TRUE.equals(described.get("member"))
						? ": in the set, <span class=\"" + STYLED.getOrDefault(status, "") + "\">" + escape(status) + "</span>"
								+ ((described.get("reason") != null) ? ": " + escape(described.get("reason")) : "")
						: ": not in the set, runs the base")
				+ "</span>";
	}

	private static String escape(Object value) {
		return HtmlUtils.htmlEscape(String.valueOf(value));
	}

}
