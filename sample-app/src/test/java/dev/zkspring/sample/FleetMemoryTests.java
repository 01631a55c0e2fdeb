package dev.zkspring.sample;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A stopped instance's lane stays on the timeline, greyed, until it was last seen longer ago than the window (issue 30.4). */
class FleetMemoryTests {

	private final FleetMemory memory = new FleetMemory();

	private static Map<String, Object> node(String id, long since) {
		return Map.of("id", id, "leader", true,
				"leadership", List.of(Map.of("group", "/leader/sample", "leader", true, "epoch", 9, "since", since)));
	}

	@Test
	void aStoppedInstanceKeepsItsLaneGreyedUntilItAgesOut() {
		long t0 = 1_000_000_000L;
		this.memory.withDeparted(List.of(node("a", t0 - 5_000), node("b", t0 - 5_000)), t0);
		List<Map<String, Object>> later = this.memory.withDeparted(List.of(node("a", t0 - 5_000)), t0 + 10_000);
		assertThat(later).extracting((node) -> node.get("id")).containsExactly("a", "b");
		assertThat(later.get(1)).containsEntry("gone", t0);
		String svg = FleetTimeline.svg(later, List.of(), "a", t0 + 10_000);
		assertThat(svg).contains("class=\"lane\" data-instance=\"a\"")
			.contains("class=\"lane gone\" data-instance=\"b\"")
			.contains("stopped or session gone; last seen");
		List<Map<String, Object>> aged = this.memory.withDeparted(List.of(node("a", t0 - 5_000)),
				t0 + FleetTimeline.WINDOW_MILLIS + 1);
		assertThat(aged).extracting((node) -> node.get("id")).containsExactly("a");
	}

	@Test
	void nodesListedAsStaleWhileThisInstanceIsDisconnectedAreNotRecordedAsSeen() {
		this.memory.withDeparted(List.of(Map.of("id", "c", "stale", true)), 1_000);
		assertThat(this.memory.withDeparted(List.of(), 2_000)).isEmpty();
	}

}
