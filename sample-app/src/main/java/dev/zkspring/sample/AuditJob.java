package dev.zkspring.sample;

import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.scheduling.quartz.QuartzJobBean;

/**
 * The second leader-only job of the {@code groups} profile: it counts the units in stock, so that two
 * jobs can sit in two leader groups and run on two instances.
 */
@DisallowConcurrentExecution
public class AuditJob extends QuartzJobBean {

	private StockStore store;

	@Autowired
	void setStore(StockStore store) {
		this.store = store;
	}

	@Override
	protected void executeInternal(JobExecutionContext context) {
		context.setResult(this.store.all().stream().mapToInt((row) -> ((Number) row.get("QUANTITY")).intValue()).sum());
	}

}
