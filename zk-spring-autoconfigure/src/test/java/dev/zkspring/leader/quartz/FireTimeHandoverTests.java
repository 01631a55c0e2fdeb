package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;

import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.RevokePolicy;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Each fire time of a schedule every instance shares runs once across a handover: the successor
 * resumes after the last fire time its predecessor started instead of catching up on it.
 */
class FireTimeHandoverTests {

	private static final long PERIOD = 200;

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	static final Map<String, List<Long>> runs = new ConcurrentHashMap<>();

	@RegisterExtension
	final StartedSchedulers started = new StartedSchedulers();

	@Test
	void successorOfAGracefulStopResumesAfterTheLastFireTimeItsPredecessorStarted() throws Exception {
		ZkLeaderElection a = instance("a");
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		ZkLeaderElection b = instance("b");
		await().atMost(Duration.ofSeconds(5)).until(() -> a.participants().size() == 2);
		await().atMost(Duration.ofSeconds(5)).until(() -> runs.get("a").size() >= 8);
		a.stop();
		await().atMost(Duration.ofSeconds(5)).until(() -> runs.get("b").size() >= 5);
		List<Long> all = new ArrayList<>(runs.get("a"));
		all.addAll(runs.get("b"));
		assertThat(all).doesNotHaveDuplicates();
		long lastOfA = runs.get("a").stream().mapToLong(Long::longValue).max().orElseThrow();
		assertThat(runs.get("b")).allMatch((fireTime) -> fireTime > lastOfA);
		// moved past the recorded fire time on b's grant, the startup trigger is not taken for a runtime one
		CuratorFramework observer = zk.newClient();
		if (observer.checkExists().forPath("/leader/fire-times.triggers") != null) {
			assertThat(observer.getChildren().forPath("/leader/fire-times.triggers")).isEmpty();
		}
	}

	private ZkLeaderElection instance(String id) throws Exception {
		runs.put(id, new CopyOnWriteArrayList<>());
		CuratorFramework client = zk.newClient();
		ZkLeaderElection election = new ZkLeaderElection(client, "/leader/fire-times", () -> id, Duration.ofSeconds(2),
				Duration.ZERO);
		this.started.add(election);
		Scheduler scheduler = this.started.scheduler("fire-times-" + id, 1);
		new SchedulerGate(scheduler, election, LeaderInternals::records, RevokePolicy.STANDBY).attach();
		long now = System.currentTimeMillis();
		scheduler.scheduleJob(JobBuilder.newJob(FireTimeJob.class).withIdentity("fire-time").usingJobData("id", id).build(),
				TriggerBuilder.newTrigger()
					.withIdentity("fire-time")
					.startAt(new Date((now / PERIOD + 1) * PERIOD))
					.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInMilliseconds(PERIOD).repeatForever())
					.build());
		election.start();
		return election;
	}

	public static class FireTimeJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
			runs.get(context.getMergedJobDataMap().getString("id")).add(context.getScheduledFireTime().getTime());
		}

	}

}
