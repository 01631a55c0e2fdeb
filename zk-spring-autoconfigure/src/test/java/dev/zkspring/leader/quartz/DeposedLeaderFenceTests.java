package dev.zkspring.leader.quartz;

import java.time.Duration;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.JobBuilder;
import org.quartz.JobKey;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.TriggerBuilder;

import dev.zkspring.leader.LeaderInternals;
import dev.zkspring.leader.quartz.GatedQuartz.Instance;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A deposed leader that still believes it leads: its latch node was deleted while its session lives
 * on, and its client's event thread is held, so it has not heard. ZooKeeper refuses its writes of a
 * fire-time record and of a runtime trigger's record (the latch-version fence), so it starts nothing.
 */
class DeposedLeaderFenceTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final GatedQuartz quartz = new GatedQuartz();

	private final CountDownLatch thaw = new CountDownLatch(1);

	private Instance a;

	private Instance b;

	private CuratorFramework observer;

	@BeforeEach
	void deposeTheLeaderWhileItsEventThreadIsHeld() throws Exception {
		this.a = this.quartz.start("a", zk.newClient(), Duration.ofSeconds(2), GatedQuartz.Setup.NONE);
		this.b = this.quartz.start("b", zk.newClient(), Duration.ofSeconds(2), GatedQuartz.Setup.NONE);
		this.observer = zk.newClient();
		String hold = this.quartz.latchPath + "-hold";
		this.observer.create().forPath(hold);
		CountDownLatch held = new CountDownLatch(1);
		this.a.client().checkExists().usingWatcher((CuratorWatcher) (event) -> {
			held.countDown();
			this.thaw.await(30, TimeUnit.SECONDS);
		}).forPath(hold);
		this.observer.setData().forPath(hold, new byte[1]);
		assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();

		this.observer.delete().forPath(LeaderInternals.term(this.a.election()).path());

		await().atMost(Duration.ofSeconds(5)).until(() -> this.b.election().isLeader());
		assertThat(this.a.election().isLeader()).as("a has not heard yet").isTrue();
	}

	@AfterEach
	void stopAll() {
		this.thaw.countDown();
	}

	@Test
	void itsFiringIsRefusedByZooKeeperAndVetoed() throws Exception {
		this.a.scheduler().triggerJob(JobKey.jobKey("plain"));

		await().atMost(Duration.ofSeconds(5)).until(() -> this.a.election().getVetoedFirings() == 1);
		assertThat(GatedQuartz.runs).isEmpty();
		String fireTimes = this.quartz.latchPath + ".fire-times";
		List<String> names = (this.observer.checkExists().forPath(fireTimes) != null)
				? this.observer.getChildren().forPath(fireTimes) : List.of();
		for (String name : names) {
			assertThat(this.observer.getData().forPath(fireTimes + "/" + name)).as("fire-time record %s", name).isEmpty();
		}
	}

	@Test
	void itsRuntimeTriggerIsRefusedByZooKeeperAndNotRecorded() throws Exception {
		this.a.scheduler().scheduleJob(JobBuilder.newJob(GatedQuartz.RunJob.class).withIdentity("late").build(),
				TriggerBuilder.newTrigger().withIdentity("late").startAt(new Date(System.currentTimeMillis() + 60_000))
					.withSchedule(SimpleScheduleBuilder.simpleSchedule().withIntervalInSeconds(60).repeatForever())
					.build());

		String records = this.quartz.latchPath + ".triggers";
		assertThat((this.observer.checkExists().forPath(records) != null)
				? this.observer.getChildren().forPath(records) : List.of()).isEmpty();
	}

}
