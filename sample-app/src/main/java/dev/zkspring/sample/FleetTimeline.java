package dev.zkspring.sample;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import org.springframework.web.util.HtmlUtils;

/**
 * Draws the last few minutes of the fleet as inline SVG, one lane per instance: leadership periods
 * and lock holds (from each instance's fleet node) and job runs (from the shared database), so a person
 * sees handovers and the absence of overlap at a glance. Plain SVG, no script, nothing fetched.
 */
final class FleetTimeline {

	static final long WINDOW_MILLIS = 3 * 60_000;

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

	private static final int LABEL = 230;

	private static final int PLOT = 760;

	private static final int LANE = 50;

	private static final int TOP = 24;

	private static final int LOCK_TRACKS = 3;

	private FleetTimeline() {
	}

	/**
	 * @param instances the fleet nodes' contents, and those of instances gone since ({@code gone}: when last seen)
	 * @param jobRuns job runs (INSTANCE, STARTED_AT, ENDED_AT) of the window
	 * @param self this instance's id, drawn even when its node cannot be read
	 * @param now the window's end
	 */
	static String svg(List<Map<String, Object>> instances, List<Map<String, Object>> jobRuns, String self, long now) {
		long from = now - WINDOW_MILLIS;
		Set<String> lanes = new LinkedHashSet<>();
		instances.forEach((instance) -> lanes.add(String.valueOf(instance.get("id"))));
		lanes.add(self);
		jobRuns.forEach((run) -> lanes.add(String.valueOf(run.get("INSTANCE"))));
		List<String> ids = new ArrayList<>(lanes);
		int height = TOP + ids.size() * LANE + 30;
		StringBuilder svg = new StringBuilder();
		svg.append("<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(LABEL + PLOT + 10)
			.append("\" height=\"").append(height).append("\" font-family=\"sans-serif\" font-size=\"11\">");
		for (int tick = 0; tick <= 6; tick++) {
			double x = LABEL + tick * PLOT / 6.0;
			long seconds = (6 - tick) * 30L;
			svg.append("<line x1=\"").append(x).append("\" y1=\"").append(TOP - 4).append("\" x2=\"").append(x)
				.append("\" y2=\"").append(height - 24).append("\" stroke=\"#ddd\"/>");
			svg.append("<text x=\"").append(x).append("\" y=\"").append(TOP - 8).append("\" text-anchor=\"middle\">")
				.append((seconds == 0) ? "now" : "-" + (seconds / 60) + ":" + String.format("%02d", seconds % 60))
				.append("</text>");
		}
		for (int i = 0; i < ids.size(); i++) {
			String id = ids.get(i);
			int y = TOP + i * LANE;
			Map<String, Object> node = instances.stream().filter((instance) -> id.equals(instance.get("id"))).findFirst()
				.orElse(Map.of());
			Object gone = node.get("gone");
			svg.append("<g class=\"").append((gone != null) ? "lane gone" : "lane").append("\" data-instance=\"")
				.append(escape(id)).append("\"").append((gone != null) ? " opacity=\"0.45\"" : "").append(">");
			svg.append("<rect x=\"0\" y=\"").append(y).append("\" width=\"").append(LABEL + PLOT).append("\" height=\"")
				.append(LANE - 4).append("\" fill=\"").append((gone != null) ? "#ddd" : (i % 2 == 0) ? "#f7f7f7" : "#fff")
				.append("\"/>");
			svg.append("<text x=\"4\" y=\"").append(y + 18).append("\">").append(escape(id))
				.append(id.equals(self) ? " (this one)" : "").append("</text>");
			svg.append("<text x=\"4\" y=\"").append(y + 34).append("\" fill=\"#888\">")
				.append(node.isEmpty() ? "no fleet node: stopped or session gone"
						: (gone != null) ? "stopped or session gone; last seen " + TIME.format(Instant.ofEpochMilli((Long) gone))
						: node.containsKey("unreadable") ? "unreadable fleet node" : "leads / job / locks").append("</text>");
			String canary = node.containsKey("unreadable") ? "" : FleetSection.canaryMark(node);
			if (!canary.isEmpty()) {
				// an instance running (or asked to run) a canary's candidate, marked on its lane
				svg.append("<text class=\"canary\" x=\"120\" y=\"").append(y + 18).append("\" fill=\"#a0307a\">")
					.append(escape(canary)).append("</text>");
			}
			long until = (gone != null) ? (Long) gone : now;
			for (Map<String, Object> period : periods(node, "leader", until)) {
				bar(svg, "leader", "#2a8f4a", y + 4, period, from, now);
			}
			for (Map<String, Object> run : jobRuns) {
				if (id.equals(run.get("INSTANCE"))) {
					// a run with no end: running, or cut off by its instance's stop — then it ended by when the instance
					// was last seen, or, for an instance with no node at all, is drawn as a mark at its start
					Object end = run.get("ENDED_AT");
					Object start = run.get("STARTED_AT");
					bar(svg, "job", "#2f6fd0", y + 18, Map.of("label", (end != null) ? "job run" : "job run, end not recorded",
							"start", start, "end", (end != null) ? end : node.isEmpty() ? start : until), from, now);
				}
			}
			locks(svg, periods(node, "lock", until), y + 32, from, now);
			svg.append("</g>");
		}
		int legend = height - 10;
		legend(svg, LABEL, legend, "#2a8f4a", "leads");
		legend(svg, LABEL + 90, legend, "#2f6fd0", "job run");
		legend(svg, LABEL + 180, legend, "#e08a1e", "lock held");
		return svg.append("</svg>").toString();
	}

	/** Closed periods of a kind from the node's recent history, and the open one (leading, holding) up to now (or when last seen). */
	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> periods(Map<String, Object> node, String kind, long now) {
		List<Map<String, Object>> periods = new ArrayList<>();
		for (Map<String, Object> period : (List<Map<String, Object>>) node.getOrDefault("recent", List.of())) {
			if (kind.equals(period.get("kind"))) {
				// a lock's history names its key (the label), as the list of held locks does
				periods.add(kind.equals("lock") ? Map.of("key", String.valueOf(period.get("label")), "start",
						period.get("start"), "end", period.get("end")) : period);
			}
		}
		if (kind.equals("leader")) {
			for (Map<String, Object> group : (List<Map<String, Object>>) node.getOrDefault("leadership", List.of())) {
				if (Boolean.TRUE.equals(group.get("leader")) && group.get("since") != null) {
					periods.add(Map.of("label", "leads, epoch " + group.get("epoch"), "start", group.get("since"), "end", now));
				}
			}
		}
		else {
			for (Map<String, Object> lock : (List<Map<String, Object>>) node.getOrDefault("locks", List.of())) {
				periods.add(Map.of("key", String.valueOf(lock.get("key")), "start", lock.get("since"), "end", now));
			}
		}
		return periods;
	}

	/**
	 * Lock holds, one track per key (up to {@value #LOCK_TRACKS}; more keys share the last), so holds of two keys
	 * at once are drawn side by side, not on top of each other; on one track a bar never reaches into the next
	 * hold of its key, however short the first (the minimum width would otherwise draw consecutive holds as
	 * overlapping).
	 */
	private static void locks(StringBuilder svg, List<Map<String, Object>> periods, int y, long from, long now) {
		Map<String, List<Map<String, Object>>> byKey = new TreeMap<>();
		for (Map<String, Object> period : periods) {
			byKey.computeIfAbsent((String) period.get("key"), (key) -> new ArrayList<>()).add(period);
		}
		int tracks = Math.max(1, Math.min(LOCK_TRACKS, byKey.size()));
		int height = 11 / tracks;
		int track = 0;
		for (Map.Entry<String, List<Map<String, Object>>> key : byKey.entrySet()) {
			List<Map<String, Object>> holds = new ArrayList<>(key.getValue());
			holds.sort(Comparator.comparingLong((period) -> ((Number) period.get("start")).longValue()));
			for (int i = 0; i < holds.size(); i++) {
				Map<String, Object> hold = holds.get(i);
				long next = (i + 1 < holds.size()) ? ((Number) holds.get(i + 1).get("start")).longValue() : Long.MAX_VALUE;
				Map<String, Object> drawn = Map.of("label", "holds " + key.getKey(), "start", hold.get("start"), "end",
						hold.get("end"), "limit", next);
				bar(svg, "lock", "#e08a1e", y + track * height, height, drawn, from, now);
			}
			track = Math.min(track + 1, tracks - 1);
		}
	}

	private static void bar(StringBuilder svg, String kind, String color, int y, Map<String, Object> period, long from,
			long now) {
		bar(svg, kind, color, y, 11, period, from, now);
	}

	/** One period as a bar; {@code limit} (optional): where the next bar of its track starts, never overdrawn. */
	private static void bar(StringBuilder svg, String kind, String color, int y, int height, Map<String, Object> period,
			long from, long now) {
		long start = ((Number) period.get("start")).longValue();
		long end = ((Number) period.get("end")).longValue();
		if (end < from || start > now) {
			return;
		}
		double x1 = x(Math.max(start, from), from);
		double width = Math.max(1.5, x(Math.min(end, now), from) - x1);
		Object limit = period.get("limit");
		if (limit != null && ((Number) limit).longValue() <= now) {
			width = Math.max(0, Math.min(width, x(((Number) limit).longValue(), from) - x1));
		}
		svg.append("<rect class=\"").append(kind).append("\" x=\"").append(String.format("%.1f", x1)).append("\" y=\"")
			.append(y).append("\" width=\"").append(String.format("%.1f", width)).append("\" height=\"").append(height)
			.append("\" fill=\"").append(color).append("\"><title>").append(escape(period.get("label"))).append(": ")
			.append(TIME.format(Instant.ofEpochMilli(start))).append(" to ").append(TIME.format(Instant.ofEpochMilli(end)))
			.append(" UTC</title></rect>");
	}

	/** Where a moment is drawn, cut (not rounded) to the tenth of a pixel written, so cut bars never overlap. */
	private static double x(long millis, long from) {
		return Math.floor((LABEL + (millis - from) * (double) PLOT / WINDOW_MILLIS) * 10) / 10;
	}

	private static void legend(StringBuilder svg, int x, int y, String color, String label) {
		svg.append("<rect x=\"").append(x).append("\" y=\"").append(y - 9).append("\" width=\"12\" height=\"10\" fill=\"")
			.append(color).append("\"/><text x=\"").append(x + 16).append("\" y=\"").append(y).append("\">").append(label)
			.append("</text>");
	}

	private static String escape(Object value) {
		return HtmlUtils.htmlEscape(String.valueOf(value));
	}

}
