package dev.zkspring.sample;

import java.util.List;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The stock table in the database all instances share. Reads and writes are plain statements: the
 * only thing that keeps a deduction from racing another instance's is the {@code @ZkLock} around it.
 */
@Component
class StockStore implements ApplicationListener<ContextClosedEvent> {

	private static final Log logger = LogFactory.getLog(StockStore.class);

	private volatile boolean closing;

	static final String DEMO_SKU = "apple";

	private final JdbcTemplate jdbc;

	StockStore(JdbcTemplate jdbc) {
		this.jdbc = jdbc;
		jdbc.execute("CREATE TABLE IF NOT EXISTS stock (sku VARCHAR(64) PRIMARY KEY, quantity INT NOT NULL, "
				+ "CONSTRAINT stock_not_negative CHECK (quantity >= 0))");
		jdbc.execute("CREATE TABLE IF NOT EXISTS job_run (id BIGINT AUTO_INCREMENT PRIMARY KEY, "
				+ "instance VARCHAR(255) NOT NULL, started_at BIGINT NOT NULL, ended_at BIGINT)");
		if (quantity(DEMO_SKU) == null) {
			try {
				jdbc.update("INSERT INTO stock (sku, quantity) VALUES (?, ?)", DEMO_SKU, 100);
			}
			catch (DuplicateKeyException ex) {
				// another instance seeded it first
			}
		}
	}

	Integer quantity(String sku) {
		List<Integer> rows = this.jdbc.queryForList("SELECT quantity FROM stock WHERE sku = ?", Integer.class, sku);
		return rows.isEmpty() ? null : rows.get(0);
	}

	void setQuantity(String sku, int quantity) {
		if (this.jdbc.update("UPDATE stock SET quantity = ? WHERE sku = ?", quantity, sku) == 0) {
			this.jdbc.update("INSERT INTO stock (sku, quantity) VALUES (?, ?)", sku, quantity);
		}
	}

	List<Map<String, Object>> all() {
		return this.jdbc.queryForList("SELECT sku, quantity FROM stock ORDER BY sku");
	}

	long jobStarted(String instance, long startedAt) {
		this.jdbc.update("INSERT INTO job_run (instance, started_at) VALUES (?, ?)", instance, startedAt);
		return this.jdbc.queryForObject("SELECT MAX(id) FROM job_run WHERE instance = ? AND started_at = ?", Long.class,
				instance, startedAt);
	}

	void jobEnded(long id, long endedAt) {
		try {
			this.jdbc.update("UPDATE job_run SET ended_at = ? WHERE id = ?", endedAt, id);
		}
		catch (DataAccessResourceFailureException ex) {
			if (!this.closing) {
				throw ex;
			}
			// H2 closes the shared database from a shutdown hook of its own (AUTO_SERVER forbids turning that
			// off), while leadership drains the run in Spring's: the timeline ends the open run where its
			// instance was last seen
			logger.info("The end of job run " + id + " was not recorded: the database closed as the process stopped");
		}
	}

	@Override
	public void onApplicationEvent(ContextClosedEvent event) {
		this.closing = true;
	}

	List<Map<String, Object>> allJobRuns() {
		return this.jdbc.queryForList("SELECT id, instance, started_at, ended_at FROM job_run ORDER BY started_at, id");
	}

	List<Map<String, Object>> jobRunsSince(long since) {
		return this.jdbc.queryForList("SELECT id, instance, started_at, ended_at FROM job_run WHERE ended_at >= ? "
				+ "OR (ended_at IS NULL AND started_at >= ?) ORDER BY started_at, id", since, since);
	}

	List<Map<String, Object>> lastJobRuns(int count) {
		return this.jdbc.queryForList(
				"SELECT id, instance, started_at, ended_at FROM job_run ORDER BY id DESC FETCH FIRST ? ROWS ONLY", count);
	}

}
