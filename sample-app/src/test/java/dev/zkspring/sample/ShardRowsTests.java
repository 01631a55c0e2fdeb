package dev.zkspring.sample;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The status page's shards section: the owner of each shard now and each shard's last runs, with a
 * re-run and a handover marked; instance names come out as text, never as markup.
 */
class ShardRowsTests {

	@Test
	void eachShardsOwnerAndLastRunsWithReRunsAndHandoversMarked() {
		Map<String, Object> ran = Map.of("shard", 0, "owner", "b", "instance", "b", "start", "2026-11-28T18:00:00.010Z",
				"end", "2026-11-28T18:00:00.320Z", "outcome", "OK");
		Map<String, Object> rerun = new LinkedHashMap<>(Map.of("shard", 1, "owner", "c", "instance", "c", "start",
				"2026-11-28T18:00:07.000Z", "end", "2026-11-28T18:00:07.300Z", "outcome", "OK"));
		rerun.put("recovering", true);
		Map<String, Object> handedOver = new LinkedHashMap<>(Map.of("shard", 0, "owner", "c"));
		handedOver.put("handedOver", true);
		Map<String, Object> running = Map.of("shard", 1, "owner", "<i>x</i>", "instance", "<i>x</i>", "start",
				"2026-11-28T18:00:02.010Z");
		Map<String, Object> job = Map.of("job", "DEFAULT.regions", "owners", List.of("c", "<i>x</i>"), "fires",
				List.of(Map.of("fireTime", "2026-11-28T18:00:02Z", "shards", List.of(handedOver, running)),
						Map.of("fireTime", "2026-11-28T18:00:00Z", "shards", List.of(ran, rerun))));
		StringBuilder html = new StringBuilder();
		ShardRows.append(html, List.of(job));
		String page = html.toString();
		assertThat(page).contains("<table id=\"shards-DEFAULT.regions\">", "<th>fire time 18:00:02</th>",
				"<th>fire time 18:00:00</th>");
		assertThat(page).contains("<td class=\"shard-owner\">c</td>", "<td class=\"shard-owner\">&lt;i&gt;x&lt;/i&gt;</td>");
		assertThat(page).contains("b 18:00:00.010–18:00:00.320 OK", "&lt;i&gt;x&lt;/i&gt; 18:00:02.010–running",
				"owner c: not started <span class=\"pending\">handed over", "re-run: its owner was lost mid-run");
		assertThat(page).doesNotContain("<i>");
	}

	@Test
	void withoutShardedJobsTheSectionSaysSo() {
		StringBuilder html = new StringBuilder();
		ShardRows.append(html, List.of());
		assertThat(html.toString()).contains("id=\"no-shards\"");
	}

}
