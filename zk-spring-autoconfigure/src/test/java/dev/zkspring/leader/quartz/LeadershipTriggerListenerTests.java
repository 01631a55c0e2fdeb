package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The leader gate's last line of defence on a real Quartz scheduler: firings while not leading are vetoed and counted. */
class LeadershipTriggerListenerTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	static final AtomicInteger runs = new AtomicInteger();

	@Test
	void firingWhileNotLeadingIsVetoedAndCounted() throws Exception {
		runs.set(0);
		ZkLeaderElection election = new ZkLeaderElection(zk.newClient(), "/leader/veto-tests", () -> "node-1",
				Duration.ofSeconds(1), Duration.ZERO);
		Properties properties = new Properties();
		properties.setProperty("org.quartz.scheduler.instanceName", "veto-tests");
		properties.setProperty("org.quartz.threadPool.threadCount", "1");
		properties.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
		Scheduler scheduler = new StdSchedulerFactory(properties).getScheduler();
		try {
			scheduler.getListenerManager().addTriggerListener(new LeadershipTriggerListener(election, LeaderInternals::records));
			scheduler.start();
			scheduler.scheduleJob(JobBuilder.newJob(CountingJob.class).build(),
					TriggerBuilder.newTrigger().startNow().build());
			await().atMost(Duration.ofSeconds(10)).until(() -> election.getVetoedFirings() == 1);
			assertThat(runs).hasValue(0);
		}
		finally {
			scheduler.shutdown(true);
		}
	}

	public static class CountingJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
			runs.incrementAndGet();
		}

	}

}
