package dev.zkspring.sample;

import java.util.List;
import java.util.Map;

import org.springframework.web.util.HtmlUtils;

/**
 * The status page's jobs table: a row per leader-gated job (schedule, paused, next fire time on the
 * leader) with its last run as kept in ZooKeeper by whichever instance ran it.
 */
final class JobRows {

	private JobRows() {
	}

	static void append(StringBuilder html, List<Map<String, Object>> jobs) {
		html.append("<h2>Jobs (<a href=\"/actuator/zookeeper/jobs\">/actuator/zookeeper/jobs</a>)</h2><table>")
			.append("<tr><th>job</th><th>schedule</th><th>paused</th><th>next fire time</th><th>last run on</th>")
			.append("<th>start</th><th>end</th><th>outcome</th><th>runs kept</th></tr>");
		for (Map<String, Object> job : jobs) {
			String id = job.get("group") + "." + job.get("name");
			List<?> runs = (job.get("lastRuns") instanceof List<?> list) ? list : List.of();
			Map<?, ?> last = (!runs.isEmpty() && runs.get(0) instanceof Map<?, ?> run) ? run : Map.of();
			html.append("<tr id=\"job-").append(escape(id)).append("\"><th>").append(escape(id)).append("</th><td>")
				.append(escape(job.get("schedule"))).append("</td><td>").append(escape(job.get("paused")))
				.append("</td><td>").append(escape(job.getOrDefault("nextFireTime", "")))
				.append("</td><td class=\"job-instance\">").append(escape(last.get("instance")))
				.append("</td><td>").append(escape(last.get("start"))).append("</td><td>").append(escape(last.get("end")))
				.append("</td><td>").append(escape(last.get("outcome"))).append("</td><td>").append(runs.size())
				.append("</td></tr>");
		}
		html.append("</table>");
	}

	private static String escape(Object value) {
		return HtmlUtils.htmlEscape((value != null) ? String.valueOf(value) : "");
	}

}
