package dev.zkspring.sample;

import java.time.Duration;

import org.quartz.DisallowConcurrentExecution;
import org.quartz.JobExecutionContext;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.quartz.QuartzJobBean;

/** The leader-only job: records each run (instance, start, end) in the shared database. */
@DisallowConcurrentExecution
public class RecordedJob extends QuartzJobBean {

	private StockStore store;

	private Instance instance;

	private Duration duration = Duration.ofMillis(300);

	@Autowired
	void setStore(StockStore store) {
		this.store = store;
	}

	@Autowired
	void setInstance(Instance instance) {
		this.instance = instance;
	}

	@Value("${sample.job.duration:300ms}")
	void setDuration(Duration duration) {
		this.duration = duration;
	}

	@Override
	protected void executeInternal(JobExecutionContext context) {
		long id = this.store.jobStarted(this.instance.id(), System.currentTimeMillis());
		try {
			Thread.sleep(this.duration.toMillis()); // stands for the job's work
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.store.jobEnded(id, System.currentTimeMillis());
		}
	}

}
