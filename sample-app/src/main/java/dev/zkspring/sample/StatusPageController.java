package dev.zkspring.sample;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

import dev.zkspring.jobs.ZkShards;

/**
 * The status page at {@code /}: the same facts as {@code /status}, for a person, with the fleet table and
 * its timeline; it reloads itself every 2 s. Self-contained: inline CSS and SVG, nothing from a CDN.
 */
@RestController
class StatusPageController {

	private static final String EPOCH = "The epoch is the ZooKeeper transaction id (zxid) of the write that made this "
			+ "leadership: every new leadership, on any instance, has a greater one. Its high 32 bits count the "
			+ "ensemble's own elections, so it jumps by about 4.3 billion after ZooKeeper restarts: that is expected.";

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

	private final StatusController status;

	private final StockStore store;

	private final FleetMemory fleetMemory;

	private final ObjectProvider<ZkShards> shards;

	StatusPageController(StatusController status, StockStore store, FleetMemory fleetMemory, ObjectProvider<ZkShards> shards) {
		this.status = status;
		this.store = store;
		this.fleetMemory = fleetMemory;
		this.shards = shards;
	}

	@GetMapping(path = "/", produces = MediaType.TEXT_HTML_VALUE)
	String page() {
		Map<String, Object> status = this.status.status();
		long now = System.currentTimeMillis();
		StringBuilder html = new StringBuilder();
		html.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\">")
			.append("<meta http-equiv=\"refresh\" content=\"2\">")
			.append("<title>zk-spring sample: ").append(escape(status.get("instance"))).append("</title>")
			.append("<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:1.5em}")
			.append("td,th{border:1px solid #ccc;padding:.3em .8em;text-align:left}th{background:#eee}")
			.append(".yes{color:#070;font-weight:bold}.no{color:#a00;font-weight:bold}"
				+ ".current{color:#070}.refused{color:#a00;font-weight:bold}.pending{color:#b60}.source{color:#666}.canary{color:#a0307a}</style></head><body>");
		@SuppressWarnings("unchecked")
		Map<String, Object> config = (Map<String, Object>) status.get("config");
		html.append("<h1>").append(escape(config.get("sample.shop.banner"))).append("</h1>");
		html.append("<h2>This instance</h2><table>");
		row(html, "instance", "Instance", status.get("instance"));
		row(html, "zookeeper", "ZooKeeper", status.get("zookeeper"));
		boolean connected = Boolean.TRUE.equals(status.get("connected"));
		html.append("<tr><th>Connected</th><td id=\"connected\" class=\"").append(connected ? "yes" : "no").append("\">")
			.append(connected ? "yes" : "no").append("</td></tr>");
		row(html, "session", "Session", status.get("session"));
		row(html, "config-source", "Configuration documents", documents(status.get("configSource")));
		Object refusal = status.get("lastRefusal");
		row(html, "last-refusal", "Last refused change", (refusal instanceof Map<?, ?> refused)
				? "znode " + refused.get("znode") + " version " + refused.get("version") + ": " + refused.get("reason")
						+ " (at " + refused.get("at") + ")"
				: "none");
		html.append("</table><h2>Leadership</h2><table>");
		Object leaderId = status.get("leader");
		if (!status.containsKey("epoch")) {
			leaderId = "not known here: this instance takes no part in the election (zk.leader.enabled=false)";
		}
		row(html, "leader", "Leader", (leaderId != null) ? leaderId : "none yet");
		if (!"now".equals(status.getOrDefault("leadershipKnown", "now"))) {
			row(html, "leadership-known", "Leader and participants", status.get("leadershipKnown"));
		}
		boolean leader = Boolean.TRUE.equals(status.get("isLeader"));
		html.append("<tr><th>This instance leads</th><td id=\"is-leader\" class=\"").append(leader ? "yes" : "no")
			.append("\">").append(leader ? "yes" : "no").append("</td></tr>");
		row(html, "participants", "Participants", String.join(", ", strings(status.get("participants"))));
		if (status.containsKey("epoch")) {
			html.append("<tr><th>Epoch</th><td id=\"epoch\" title=\"").append(escape(EPOCH)).append("\">")
				.append(escape(status.get("epoch"))).append("<br><small>").append(escape(EPOCH)).append("</small></td></tr>");
		}
		html.append("</table>");
		FleetSection.append(html, this.fleetMemory.withDeparted(rows(status.get("fleet")), now), this.store.jobRunsSince(now - FleetTimeline.WINDOW_MILLIS),
				String.valueOf(status.get("instance")), connected, now);
		html.append("<h2>Live configuration (<a href=\"/config\">/config</a>)</h2><table>")
			.append("<tr><th>key</th><th>value</th><th>from</th></tr>");
		@SuppressWarnings("unchecked")
		Map<String, Object> sources = (Map<String, Object>) status.get("configSources");
		config.forEach((key, value) -> {
			html.append("<tr><th>").append(escape(key)).append("</th><td id=\"").append(escape(key.replace('.', '-')))
				.append("\">").append(escape(value)).append("</td><td class=\"source\" id=\"source-")
				.append(escape(key.replace('.', '-'))).append("\">").append(escape(sources.get(key))).append("</td></tr>");
		});
		html.append("</table><h2>Stock</h2><table><tr><th>sku</th><th>quantity</th></tr>");
		for (Map<String, Object> item : rows(status.get("stock"))) {
			html.append("<tr><td>").append(escape(item.get("SKU"))).append("</td><td id=\"stock-")
				.append(escape(item.get("SKU"))).append("\">").append(escape(item.get("QUANTITY"))).append("</td></tr>");
		}
		html.append("</table>");
		JobRows.append(html, rows(status.get("jobs")));
		ZkShards sharded = this.shards.getIfAvailable();
		// read only while connected: a read would otherwise wait out the client's retries
		ShardRows.append(html, (sharded != null && connected) ? sharded.describe(3) : List.of());
		html.append("<h2>Last job runs</h2><table><tr><th>instance</th><th>start (UTC)</th><th>end (UTC)</th></tr>");
		for (Map<String, Object> run : rows(status.get("jobRuns"))) {
			html.append("<tr><td>").append(escape(run.get("INSTANCE"))).append("</td><td>")
				.append(time(run.get("STARTED_AT"))).append("</td><td>").append(time(run.get("ENDED_AT")))
				.append("</td></tr>");
		}
		html.append("</table><p>Reloads every 2 s. Raw: <a href=\"/status\">/status</a></p></body></html>");
		return html.toString();
	}

	private static String documents(Object source) {
		return switch (String.valueOf(source)) {
			case "ZOOKEEPER" -> "read from ZooKeeper (each value's own source: Live configuration, below)";
			case "SNAPSHOT" -> "from the last-known-good snapshot: ZooKeeper was unreachable at startup";
			default -> "none: ZooKeeper was unreachable at startup and there was no snapshot";
		};
	}

	private static void row(StringBuilder html, String id, String label, Object value) {
		html.append("<tr><th>").append(escape(label)).append("</th><td id=\"").append(escape(id)).append("\">")
			.append(escape(value)).append("</td></tr>");
	}

	private static String time(Object millis) {
		return (millis instanceof Number number) ? TIME.format(Instant.ofEpochMilli(number.longValue())) : "running";
	}

	private static String escape(Object value) {
		return HtmlUtils.htmlEscape(String.valueOf(value));
	}

	@SuppressWarnings("unchecked")
	private static List<String> strings(Object value) {
		return (value instanceof List<?> list) ? (List<String>) list : List.of();
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> rows(Object value) {
		return (value instanceof List<?> list) ? (List<Map<String, Object>>) list : List.of();
	}

}
