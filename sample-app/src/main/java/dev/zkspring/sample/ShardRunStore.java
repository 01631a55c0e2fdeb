package dev.zkspring.sample;

import java.util.List;
import java.util.Map;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

import dev.zkspring.leader.ShardContext;

/**
 * The journal of the sharded job's runs in the database all instances share: one row per shard run,
 * written when it starts and completed when it ends, so a run cut short by a {@code kill -9} stays
 * without an end. What the end-to-end test checks "each (fire time, shard) once" against.
 */
@Component
class ShardRunStore {

	private final JdbcTemplate jdbc;

	ShardRunStore(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
		jdbc.execute("CREATE TABLE IF NOT EXISTS shard_run (id BIGINT AUTO_INCREMENT PRIMARY KEY, "
				+ "instance VARCHAR(255) NOT NULL, fire_time BIGINT NOT NULL, shard INT NOT NULL, total INT NOT NULL, "
				+ "parameter VARCHAR(255), recovering BOOLEAN NOT NULL, started_at BIGINT NOT NULL, ended_at BIGINT)");
	}

	long started(String instance, ShardContext shard, boolean recovering, long startedAt) {
		this.jdbc.update("INSERT INTO shard_run (instance, fire_time, shard, total, parameter, recovering, started_at) "
				+ "VALUES (?, ?, ?, ?, ?, ?, ?)", instance, shard.fireTime(), shard.index(), shard.total(), shard.parameter(),
				recovering, startedAt);
		return this.jdbc.queryForObject("SELECT MAX(id) FROM shard_run WHERE instance = ? AND fire_time = ? AND shard = ?",
				Long.class, instance, shard.fireTime(), shard.index());
	}

	void ended(long id, long endedAt) {
		this.jdbc.update("UPDATE shard_run SET ended_at = ? WHERE id = ?", endedAt, id);
	}

	List<Map<String, Object>> all() {
		return this.jdbc.queryForList("SELECT id, instance, fire_time, shard, total, parameter, recovering, started_at, "
				+ "ended_at FROM shard_run ORDER BY fire_time, shard, id");
	}

}
