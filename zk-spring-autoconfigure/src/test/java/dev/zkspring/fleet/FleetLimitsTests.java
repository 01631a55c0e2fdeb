package dev.zkspring.fleet;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** An instance keeps its own fleet node within the bound the readers apply, so it never shows as unreadable. */
class FleetLimitsTests {

	private final JsonMapper json = JsonMapper.builder().build();

	@Test
	void aNodeHoldingThousandsOfKeysIsCutToFitAndSaysSoAndStillReads() throws Exception {
		List<Map<String, Object>> locks = new ArrayList<>();
		for (int i = 0; i < 5000; i++) {
			locks.add(Map.of("key", "order-" + i, "mode", "EXCLUSIVE", "since", 1L));
		}
		Map<String, Object> node = new LinkedHashMap<>();
		node.put("leader", false);
		node.put("locks", locks);
		byte[] data = FleetLimits.fit(node, this.json);
		assertThat(data.length).isLessThanOrEqualTo(FleetLimits.MAX_NODE_BYTES);
		Map<String, Object> read = new NodeContent(this.json).read("node-1", data);
		assertThat(read).containsEntry("truncated", true);
		assertThat((List<?>) read.get("locks")).isNotEmpty();
	}

	@Test
	void aSmallNodeIsWrittenWhole() throws Exception {
		Map<String, Object> node = new LinkedHashMap<>();
		node.put("leader", true);
		node.put("locks", List.of(Map.of("key", "k", "mode", "SHARED", "since", 1L)));
		Map<String, Object> read = new NodeContent(this.json).read("node-1", FleetLimits.fit(node, this.json));
		assertThat(read).doesNotContainKey("truncated").containsEntry("leader", true);
	}

}
