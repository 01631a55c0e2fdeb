package dev.zkspring.sample;

import java.time.Duration;

import org.quartz.JobExecutionContext;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.scheduling.quartz.QuartzJobBean;

import dev.zkspring.leader.ShardContext;

/**
 * The sharded job of the {@code shards} profile: each fire time, each of its shards (a region, its
 * parameter) runs once somewhere in the fleet. Journals each shard run (instance, fire time, shard,
 * whether it is a re-run after its owner was lost, start, end) in the shared database.
 */
public class RegionsJob extends QuartzJobBean {

	private ShardRunStore journal;

	private Instance instance;

	private Duration duration = Duration.ofMillis(300);

	@Autowired
	void setJournal(ShardRunStore journal) {
		this.journal = journal;
	}

	@Autowired
	void setInstance(Instance instance) {
		this.instance = instance;
	}

	@Value("${sample.regions.duration:300ms}")
	void setDuration(Duration duration) {
		this.duration = duration;
	}

	@Override
	protected void executeInternal(JobExecutionContext context) {
		ShardContext shard = ShardContext.require(context);
		long id = this.journal.started(this.instance.id(), shard, context.isRecovering(), System.currentTimeMillis());
		try {
			Thread.sleep(this.duration.toMillis()); // stands for the report of one region
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		finally {
			this.journal.ended(id, System.currentTimeMillis());
		}
	}

}
