package dev.zkspring.sample;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The timeline's lock row (issue 38 item 5): holds are named by key, never by the {@code @ZkLock} expression,
 * one key's consecutive short holds are never drawn overlapping (the minimum bar width used to), and two keys
 * held at once are drawn on tracks of their own.
 */
class FleetTimelineTests {

	private static final long NOW = 1_800_000_000_000L;

	private static final Pattern LOCK_BAR = Pattern
		.compile("<rect class=\"lock\" x=\"([0-9.]+)\" y=\"([0-9]+)\" width=\"([0-9.]+)\" height=\"([0-9]+)\" fill=\"[^\"]*\"><title>holds (.+?): [0-9]{2}:");

	@Test
	void consecutiveShortHoldsOfOneKeyAreNamedByKeyAndNeverOverlap() {
		List<Map<String, Object>> recent = new ArrayList<>();
		for (int i = 0; i < 20; i++) {
			// 5 ms holds, 20 ms apart: each far narrower than the minimum width of a bar
			long start = NOW - 60_000 + i * 20;
			recent.add(Map.of("kind", "lock", "label", "stock:sku-1", "start", start, "end", start + 5));
		}
		Map<String, Object> node = Map.of("id", "node-1", "recent", recent,
				"locks", List.of(Map.of("key", "stock:sku-1", "since", NOW - 60_000 + 20 * 20)));
		List<Bar> bars = bars(FleetTimeline.svg(List.of(node), List.of(), "node-1", NOW));
		assertThat(bars).hasSize(21).allSatisfy((bar) -> assertThat(bar.key()).isEqualTo("stock:sku-1"));
		for (int i = 1; i < bars.size(); i++) {
			assertThat(bars.get(i - 1).x() + bars.get(i - 1).width()).as("bar %d ends before bar %d starts", i - 1, i)
				.isLessThanOrEqualTo(bars.get(i).x() + 1e-9);
		}
	}

	@Test
	void twoKeysHeldAtOnceGetTracksOfTheirOwn() {
		Map<String, Object> node = Map.of("id", "node-1", "locks", List.of(
				Map.of("key", "stock:sku-1", "since", NOW - 30_000), Map.of("key", "stock:sku-2", "since", NOW - 20_000)));
		List<Bar> bars = bars(FleetTimeline.svg(List.of(node), List.of(), "node-1", NOW));
		assertThat(bars).extracting(Bar::key).containsExactly("stock:sku-1", "stock:sku-2");
		assertThat(bars.get(0).y() + bars.get(0).height()).isLessThanOrEqualTo(bars.get(1).y());
	}

	@Test
	void aRunCutOffByItsInstancesStopEndsWhereTheInstanceWasLastSeenNotNow() {
		long gone = NOW - 100_000;
		Map<String, Object> stopped = Map.of("id", "node-1", "gone", gone);
		Map<String, Object> running = Map.of("id", "node-2");
		List<Map<String, Object>> runs = List.of(
				Map.of("INSTANCE", "node-1", "STARTED_AT", gone - 200),
				Map.of("INSTANCE", "node-2", "STARTED_AT", NOW - 1_000));
		String svg = FleetTimeline.svg(List.of(stopped, running), runs, "node-2", NOW);
		Matcher cut = Pattern.compile("<rect class=\"job\"[^>]*><title>job run, end not recorded: [0-9:.]+ to ([0-9:.]+) UTC")
			.matcher(svg.substring(svg.indexOf("data-instance=\"node-1\""), svg.indexOf("data-instance=\"node-2\"")));
		assertThat(cut.find()).isTrue();
		assertThat(cut.group(1)).isEqualTo(TIME.format(Instant.ofEpochMilli(gone)));
	}

	private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

	private static List<Bar> bars(String svg) {
		List<Bar> bars = new ArrayList<>();
		Matcher matcher = LOCK_BAR.matcher(svg);
		while (matcher.find()) {
			bars.add(new Bar(Double.parseDouble(matcher.group(1)), Integer.parseInt(matcher.group(2)),
					Double.parseDouble(matcher.group(3)), Integer.parseInt(matcher.group(4)), matcher.group(5)));
		}
		bars.sort((a, b) -> Double.compare(a.x(), b.x()));
		return bars;
	}

	private record Bar(double x, int y, double width, int height, String key) {
	}

}
