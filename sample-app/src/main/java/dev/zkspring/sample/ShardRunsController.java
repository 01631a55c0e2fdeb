package dev.zkspring.sample;

import java.util.List;
import java.util.Map;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code /jobs/shard-runs}: every shard run the instances journaled, for the end-to-end tests and the curious. */
@RestController
class ShardRunsController {

	private final ShardRunStore journal;

	ShardRunsController(ShardRunStore journal) {
		this.journal = journal;
	}

	@GetMapping("/jobs/shard-runs")
	List<Map<String, Object>> shardRuns() {
		return this.journal.all();
	}

}
