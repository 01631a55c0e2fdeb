package dev.zkspring.leader.shard;

import java.time.Duration;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.JobBuilder;
import org.quartz.JobDataMap;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.quartz.impl.JobExecutionContextImpl;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.TriggerFiredBundle;

import dev.zkspring.leader.LeaderJobs;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.leader.term.LeaderRecords;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A sharded job's dispatch that the next leader recovers (its leader was lost while dispatching) stands for
 * the lost one's scheduled fire time, as the lost leader named it, not the moment the lost trigger actually
 * fired a few milliseconds later: under another name the recovery would write a second dispatch and run
 * every shard of that fire time twice (found by the reliability campaign's ShardChecker).
 */
class ShardRecoveredDispatchTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private ZkLeaderElection election;

	@AfterEach
	void stop() {
		if (this.election != null) {
			this.election.stop();
		}
	}

	@Test
	void aRecoveredDispatchIsNamedAfterTheLostOnesScheduledFireTime() throws Exception {
		recoverAndAssertNamedAfterTheScheduledFireTime(true);
	}

	/**
	 * A fire time its leader recorded but never started (lost between the record and the start): the next
	 * leader's one-shot trigger is not marked recovering (the job never ran; and Quartz's in-memory store never
	 * marks one), yet the dispatch stands for that fire time, not the trigger's own firing. Named after the
	 * firing, it took the next fire time's second in the campaign, and the shard jobs saw the wrong fire time.
	 */
	@Test
	void aMissedFireTimeRunByTheNextLeaderIsNamedAfterItsScheduledFireTime() throws Exception {
		recoverAndAssertNamedAfterTheScheduledFireTime(false);
	}

	private void recoverAndAssertNamedAfterTheScheduledFireTime(boolean markedRecovering) throws Exception {
		this.election = new ZkLeaderElection(zk.newClient(), "/leader/recovered-dispatch", () -> "a",
				Duration.ofSeconds(1), Duration.ZERO);
		this.election.start();
		await().atMost(Duration.ofSeconds(10)).until(this.election::isLeader);
		AtomicLong dispatchedFor = new AtomicLong();
		AtomicReference<String> dispatchedTrigger = new AtomicReference<>();
		ShardDispatchJob job = new ShardDispatchJob(new ShardSettings.Shards(2, Map.of()),
				(context, trigger, fireTime, shards) -> {
					dispatchedTrigger.set(trigger);
					dispatchedFor.set(fireTime);
				});
		long scheduled = 1_795_889_872_000L;
		JobDataMap lost = new JobDataMap();
		lost.put(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_NAME, "regions-trigger");
		lost.put(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_GROUP, "DEFAULT");
		lost.put(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_FIRETIME_IN_MILLISECONDS, Long.toString(scheduled + 1));
		lost.put(Scheduler.FAILED_JOB_ORIGINAL_TRIGGER_SCHEDULED_FIRETIME_IN_MILLISECONDS, Long.toString(scheduled));
		lost.put(LeaderRecords.ELECTION_KEY, this.election);
		lost.put(LeaderJobs.EPOCH_KEY, this.election.epoch());
		JobDetail detail = JobBuilder.newJob(ShardDispatchJob.class).withIdentity("regions").requestRecovery().build();
		OperableTrigger recovery = (OperableTrigger) TriggerBuilder.newTrigger()
			.withIdentity("recover-1", Scheduler.DEFAULT_RECOVERY_GROUP)
			.forJob(detail)
			.usingJobData(lost)
			.startNow()
			.build();
		Date now = new Date();
		TriggerFiredBundle bundle = new TriggerFiredBundle(detail, recovery, null, markedRecovering, now, now, null, null);

		job.execute(new JobExecutionContextImpl(null, bundle, job));

		assertThat(dispatchedTrigger.get()).isEqualTo("DEFAULT.regions-trigger");
		assertThat(dispatchedFor.get()).as("the lost dispatch's scheduled fire time").isEqualTo(scheduled);
	}

}
