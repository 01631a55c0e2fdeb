package dev.zkspring.leader;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.TriggerBuilder;
import org.quartz.impl.StdSchedulerFactory;

import org.springframework.aop.framework.ProxyFactory;

import dev.zkspring.leader.quartz.SchedulerGate;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The faults of issue 11, each forced: blips during a takeover delay, stops mid-call, session loss mid-job. */
class LeadershipFaultTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static int groups;

	static volatile CountDownLatch jobEntered = new CountDownLatch(1);

	static volatile CountDownLatch jobRelease = new CountDownLatch(1);

	private final String latchPath = "/leader/fault-tests-" + (++groups);

	private final List<ZkLeaderElection> elections = new ArrayList<>();

	private final List<Scheduler> schedulers = new ArrayList<>();

	private final List<CountDownLatch> releases = new ArrayList<>();

	/** A thread per task: with 2 cores, JDK 25's default async pool runs one blocking task at a time. */
	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopAll() throws Exception {
		this.releases.forEach(CountDownLatch::countDown);
		jobRelease.countDown();
		for (Scheduler scheduler : this.schedulers) {
			scheduler.shutdown(false);
		}
		this.elections.forEach(ZkLeaderElection::stop);
		this.threads.shutdownNow();
	}

	@Test
	void successorServesTheWholeTakeoverDelayEvenWhenItsConnectionBlipsDuringIt() throws Exception {
		CuratorFramework clientOfA = zk.newClient();
		ZkLeaderElection a = election(clientOfA, "a", Duration.ofSeconds(1), Duration.ZERO);
		a.start();
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		CuratorFramework observer = zk.newClient();
		ZkLeaderElection b = election(zk.newClient(), "b", Duration.ofSeconds(1), Duration.ofSeconds(6));
		b.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> a.participants().size() == 2);
		long expired = System.nanoTime();
		ZooKeeperExtension.expireSession(clientOfA);
		// b has claimed (its id is in the latch node) and is serving the delay: blip its connection now
		await().atMost(Duration.ofSeconds(5)).until(() -> "b".equals(data(observer)));
		zk.stopServer();
		await().atMost(Duration.ofSeconds(5)).until(() -> !b.isLeader() && !observer.getZookeeperClient().isConnected());
		zk.restartServer();
		await().atMost(Duration.ofSeconds(15)).until(b::isLeader);
		assertThat(Duration.ofNanos(System.nanoTime() - expired)).isGreaterThanOrEqualTo(Duration.ofSeconds(6));
	}

	@Test
	void gracefulStopWaitsForARunningLeaderOnlyCallBeforeTheSuccessorLeads() throws Exception {
		ZkLeaderElection a = election(zk.newClient(), "a", Duration.ofSeconds(10), Duration.ZERO);
		a.start();
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		ZkLeaderElection b = election(zk.newClient(), "b", Duration.ofSeconds(10), Duration.ZERO);
		AtomicLong grantedAt = new AtomicLong();
		b.addListener(new ZkLeaderElectionIntegrationTests.RecordingListener() {
			@Override
			public void leadershipGranted(LeadershipGrantedEvent event) {
				grantedAt.set(System.nanoTime());
			}
		});
		b.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> a.participants().size() == 2);
		Work work = leaderOnly(a);
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = release();
		AtomicLong callEnded = new AtomicLong();
		CompletableFuture<Void> call = CompletableFuture.runAsync(() -> {
			work.block(entered, release);
			callEnded.set(System.nanoTime());
		}, this.threads);
		assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Void> stop = CompletableFuture.runAsync(a::stop, this.threads);
		await().during(Duration.ofMillis(700)).atMost(Duration.ofSeconds(2)).until(() -> !b.isLeader());
		release.countDown();
		call.get(5, TimeUnit.SECONDS);
		stop.get(5, TimeUnit.SECONDS);
		await().atMost(Duration.ofSeconds(5)).until(b::isLeader);
		assertThat(grantedAt.get()).isGreaterThan(callEnded.get());
	}

	@Test
	void stopDoesNotMarkTheLeadershipReleasedWhenTheDrainTimedOut() throws Exception {
		CuratorFramework observer = zk.newClient();
		ZkLeaderElection a = election(zk.newClient(), "a", Duration.ofMillis(300), Duration.ZERO);
		a.start();
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = release();
		Work work = leaderOnly(a);
		CompletableFuture.runAsync(() -> work.block(entered, release), this.threads);
		assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
		a.stop();
		// still a's id: a successor treats a as abrupt and serves its takeover delay
		assertThat(data(observer)).isEqualTo("a");
		release.countDown();
		ZkLeaderElection c = election(zk.newClient(), "c", Duration.ofMillis(300), Duration.ZERO);
		c.start();
		await().atMost(Duration.ofSeconds(5)).until(c::isLeader);
		c.stop();
		assertThat(data(observer)).as("released after a drained stop").isEmpty();
	}

	@Test
	void sessionLossWithAJobRunningDoesNotHoldCuratorsConnectionStateThread() throws Exception {
		CuratorFramework client = zk.newClient();
		List<ConnectionState> seen = new CopyOnWriteArrayList<>();
		client.getConnectionStateListenable().addListener((c, state) -> seen.add(state));
		ZkLeaderElection a = election(client, "a", Duration.ofSeconds(30), Duration.ZERO);
		Scheduler scheduler = gatedScheduler("loss-" + groups, a);
		a.start();
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		jobEntered = new CountDownLatch(1);
		jobRelease = new CountDownLatch(1);
		scheduler.scheduleJob(JobBuilder.newJob(BlockingJob.class).build(), TriggerBuilder.newTrigger().startNow().build());
		assertThat(jobEntered.await(5, TimeUnit.SECONDS)).isTrue();
		ZooKeeperExtension.injectSessionExpiration(client);
		// every other component hears of the new session while the job still runs
		await().atMost(Duration.ofSeconds(10))
			.until(() -> seen.contains(ConnectionState.LOST) && seen.indexOf(ConnectionState.LOST) < seen.size() - 1);
		assertThat(jobRelease.getCount()).isOne();
		assertThat(a.isLeader()).isFalse();
		jobRelease.countDown();
		await().atMost(Duration.ofSeconds(10)).until(a::isLeader);
	}

	@Test
	void revokedLeaderPutsItsSchedulerInStandby() throws Exception {
		ZkLeaderElection a = election(zk.newClient(), "a", Duration.ofSeconds(1), Duration.ZERO);
		Scheduler scheduler = gatedScheduler("standby-" + groups, a);
		a.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> a.isLeader() && scheduler.isStarted() && !scheduler.isInStandbyMode());
		// told after the gate, on the same thread: sees the scheduler as the revocation left it
		List<Boolean> standbyAtRevocation = new CopyOnWriteArrayList<>();
		a.addListener(new ZkLeaderElectionIntegrationTests.RecordingListener() {
			@Override
			public void leadershipRevoked(LeadershipRevokedEvent event) {
				try {
					standbyAtRevocation.add(scheduler.isInStandbyMode());
				}
				catch (Exception ex) {
					standbyAtRevocation.add(false);
				}
			}
		});
		CuratorFramework operator = zk.newClient();
		for (String node : operator.getChildren().forPath(this.latchPath)) {
			operator.delete().forPath(this.latchPath + "/" + node);
		}
		await().atMost(Duration.ofSeconds(5)).until(() -> !standbyAtRevocation.isEmpty());
		assertThat(standbyAtRevocation).containsOnly(true);
	}

	@Test
	void instanceStartedWhileZooKeeperIsDownLeadsOnceItIsUp() throws Exception {
		zk.stopServer();
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(zk.connectString())
			.sessionTimeoutMs(10_000)
			.connectionTimeoutMs(1_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		try {
			client.start();
			ZkLeaderElection a = election(client, "a", Duration.ofSeconds(1), Duration.ZERO);
			a.start();
			zk.restartServer();
			await().atMost(Duration.ofSeconds(15)).until(a::isLeader);
			a.stop();
		}
		finally {
			client.close();
		}
	}

	private CountDownLatch release() {
		CountDownLatch release = new CountDownLatch(1);
		this.releases.add(release);
		return release;
	}

	private String data(CuratorFramework observer) throws Exception {
		return new String(observer.getData().forPath(this.latchPath), StandardCharsets.UTF_8);
	}

	private ZkLeaderElection election(CuratorFramework client, String id, Duration drain, Duration takeoverDelay) {
		ZkLeaderElection election = new ZkLeaderElection(client, this.latchPath, () -> id, drain, takeoverDelay);
		this.elections.add(election);
		return election;
	}

	private Scheduler gatedScheduler(String name, ZkLeaderElection election) throws Exception {
		Properties properties = new Properties();
		properties.setProperty("org.quartz.scheduler.instanceName", name);
		properties.setProperty("org.quartz.threadPool.threadCount", "2");
		properties.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
		Scheduler scheduler = new StdSchedulerFactory(properties).getScheduler();
		new SchedulerGate(scheduler, election, ZkLeaderElection::records, RevokePolicy.STANDBY).attach();
		this.schedulers.add(scheduler);
		return scheduler;
	}

	private static Work leaderOnly(ZkLeaderElection election) {
		ProxyFactory factory = new ProxyFactory(new Work());
		factory.setProxyTargetClass(true);
		factory.addAdvisor(new LeaderOnlyAdvisor(new LeaderOnlyInterceptor(() -> election)));
		return (Work) factory.getProxy();
	}

	public static class Work {

		@LeaderOnly
		public void block(CountDownLatch entered, CountDownLatch release) {
			entered.countDown();
			try {
				release.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	public static class BlockingJob implements Job {

		@Override
		public void execute(JobExecutionContext context) {
			jobEntered.countDown();
			try {
				jobRelease.await(30, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
