package dev.zkspring.sample;

import java.util.List;
import java.util.Map;

import org.springframework.web.util.HtmlUtils;

/**
 * The status page's shards section: per sharded job, which instance owns each shard now, and each
 * shard's last runs (fire time, the instance that ran it, start, end, outcome, and whether it was handed
 * over or re-run after its owner was lost), from {@code ZkShards.describe}, the endpoint's view. Names
 * instances only: shard parameters are configuration values and are not shown.
 */
final class ShardRows {

	private ShardRows() {
	}

	static void append(StringBuilder html, List<Map<String, Object>> jobs) {
		html.append("<h2 id=\"shards\">Shards</h2>");
		if (jobs.isEmpty()) {
			html.append("<p id=\"no-shards\">No sharded job (zk.quartz.jobs.&lt;job&gt;.shards), or not known here.</p>");
			return;
		}
		for (Map<String, Object> job : jobs) {
			String name = String.valueOf(job.get("job"));
			List<?> owners = list(job.get("owners"));
			html.append("<h3>").append(escape(name)).append("</h3><table id=\"shards-").append(escape(name))
				.append("\"><tr><th>shard</th><th>owner now</th>");
			List<?> fires = list(job.get("fires"));
			for (Object fire : fires) {
				html.append("<th>fire time ").append(escape(time(((Map<?, ?>) fire).get("fireTime")))).append("</th>");
			}
			html.append("</tr>");
			int total = owners.size();
			for (Object fire : fires) {
				total = Math.max(total, list(((Map<?, ?>) fire).get("shards")).size());
			}
			for (int shard = 0; shard < total; shard++) {
				html.append("<tr class=\"shard\"><th>").append(shard).append("</th><td class=\"shard-owner\">")
					.append(escape((shard < owners.size()) ? owners.get(shard) : "")).append("</td>");
				for (Object fire : fires) {
					List<?> shards = list(((Map<?, ?>) fire).get("shards"));
					html.append("<td class=\"shard-run\">")
						.append((shard < shards.size()) ? run((Map<?, ?>) shards.get(shard)) : "").append("</td>");
				}
				html.append("</tr>");
			}
			html.append("</table>");
		}
	}

	private static String run(Map<?, ?> shard) {
		StringBuilder cell = new StringBuilder();
		if (shard.get("instance") == null) {
			cell.append("owner ").append(escape(shard.get("owner"))).append(": not started");
		}
		else {
			cell.append(escape(shard.get("instance"))).append(" ").append(escape(time(shard.get("start")))).append("–")
				.append((shard.get("end") != null) ? escape(time(shard.get("end"))) + " " + escape(shard.get("outcome"))
						: "running");
		}
		if (Boolean.TRUE.equals(shard.get("recovering"))) {
			cell.append(" <span class=\"pending\">re-run: its owner was lost mid-run</span>");
		}
		else if (Boolean.TRUE.equals(shard.get("handedOver"))) {
			cell.append(" <span class=\"pending\">handed over: its owner was lost</span>");
		}
		if (shard.get("error") != null) {
			cell.append(" <span class=\"refused\">").append(escape(shard.get("error"))).append("</span>");
		}
		return cell.toString();
	}

	/** The time of day of an ISO instant, as the rest of the page shows times. */
	private static String time(Object instant) {
		String text = String.valueOf(instant);
		int t = text.indexOf('T');
		return (t >= 0) ? text.substring(t + 1).replace("Z", "") : text;
	}

	private static List<?> list(Object value) {
		return (value instanceof List<?> list) ? list : List.of();
	}

	private static String escape(Object value) {
		return HtmlUtils.htmlEscape((value != null) ? String.valueOf(value) : "");
	}

}
