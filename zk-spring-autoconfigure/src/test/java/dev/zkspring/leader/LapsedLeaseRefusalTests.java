package dev.zkspring.leader;

import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.impl.StdSchedulerFactory;

import org.springframework.aop.framework.ProxyFactory;

import dev.zkspring.client.FakeClockLeases;
import dev.zkspring.client.SessionLease;
import dev.zkspring.leader.quartz.SchedulerGate;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A process resuming from a freeze sees its clock jump past the session lease before any connection
 * event or lease listener has run. Forced here in process: the lease's clock jumps an hour ahead while
 * the lease's own thread is held inside its lapse announcement, so the election still holds its term
 * and the scheduler still runs; only the lease check of the veto and of {@link LeaderOnly} stands
 * between the resumed process and new work.
 */
class LapsedLeaseRefusalTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	static final AtomicInteger runs = new AtomicInteger();

	private final AtomicLong clockOffset = new AtomicLong();

	private final CountDownLatch lapseAnnounced = new CountDownLatch(1);

	private final CountDownLatch thaw = new CountDownLatch(1);

	private SessionLease lease;

	private ZkLeaderElection election;

	private Scheduler scheduler;

	@BeforeEach
	void leadWithAFrozenLeaseThread() throws Exception {
		runs.set(0);
		CuratorFramework client = zk.newClient();
		this.lease = FakeClockLeases.start(client, () -> System.nanoTime() + this.clockOffset.get());
		// registered before the election's listener: holding it keeps the election from hearing of the lapse
		FakeClockLeases.holdLapseAnnouncements(this.lease, this.lapseAnnounced, this.thaw);
		this.election = new ZkLeaderElection(client, this.lease, "/leader/lapsed-" + UUID.randomUUID(), () -> "a",
				Duration.ofSeconds(1), Duration.ZERO);
		Properties properties = new Properties();
		properties.setProperty("org.quartz.scheduler.instanceName", "lapsed-" + UUID.randomUUID());
		properties.setProperty("org.quartz.threadPool.threadCount", "1");
		properties.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
		this.scheduler = new StdSchedulerFactory(properties).getScheduler();
		this.scheduler.addJob(JobBuilder.newJob(CountingJob.class).withIdentity("counting").storeDurably().build(), false);
		new SchedulerGate(this.scheduler, this.election, ZkLeaderElection::records, RevokePolicy.STANDBY).attach();
		this.election.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> this.election.isLeader() && this.scheduler.isStarted());
		this.scheduler.triggerJob(JobKey.jobKey("counting"));
		await().atMost(Duration.ofSeconds(5)).until(() -> runs.get() == 1);
		// the freeze: the clock jumps past the lease, and the lease's thread is held in its announcement
		this.clockOffset.set(TimeUnit.HOURS.toNanos(1));
		assertThat(this.lapseAnnounced.await(5, TimeUnit.SECONDS)).isTrue();
	}

	@AfterEach
	void thawAndStop() throws Exception {
		this.thaw.countDown();
		this.scheduler.shutdown(false);
		this.election.stop();
		this.lease.close();
	}

	@Test
	void vetoesAFiringWhileTheLeaseHasLapsedBeforeAnyEventArrived() throws Exception {
		assertThat(this.scheduler.isInStandbyMode()).as("nothing has told the scheduler yet").isFalse();
		long vetoedBefore = this.election.getVetoedFirings();
		this.scheduler.triggerJob(JobKey.jobKey("counting"));
		await().atMost(Duration.ofSeconds(5))
			.until(() -> this.election.getVetoedFirings() > vetoedBefore || runs.get() > 1);
		assertThat(runs).hasValue(1);
	}

	@Test
	void skipsALeaderOnlyCallWhileTheLeaseHasLapsedBeforeAnyEventArrived() {
		ProxyFactory factory = new ProxyFactory(new Work());
		factory.setProxyTargetClass(true);
		factory.addAdvisor(new LeaderOnlyAdvisor(new LeaderOnlyInterceptor(() -> this.election)));
		Work work = (Work) factory.getProxy();
		assertThat(work.run()).isNull();
		assertThat(runs).hasValue(1);
	}

	public static class CountingJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
			runs.incrementAndGet();
		}

	}

	public static class Work {

		@LeaderOnly
		public String run() {
			runs.incrementAndGet();
			return "ran";
		}

	}

}
