package dev.zkspring.leader;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.ApplicationEvent;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@link ZkLeaderElection} on its own, each simulated instance with its own client and session. */
class ZkLeaderElectionIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static int groups;

	private final List<ZkLeaderElection> elections = new ArrayList<>();

	private final String latchPath = "/leader/election-tests-" + (++groups);

	@AfterEach
	void stopElections() {
		this.elections.forEach(ZkLeaderElection::stop);
	}

	@Test
	void epochStrictlyIncreasesWithEachNewLeadershipAcrossInstances() throws Exception {
		CuratorFramework observer = zk.newClient();
		List<ZkLeaderElection> running = new ArrayList<>(List.of(start("a"), start("b"), start("c")));
		List<Long> epochs = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			ZkLeaderElection leader = awaitOneLeader(running);
			Stat stat = new Stat();
			byte[] data = observer.getData().storingStatIn(stat).forPath(this.latchPath);
			assertThat(leader.epoch()).isEqualTo(stat.getMzxid());
			assertThat(new String(data, StandardCharsets.UTF_8)).isEqualTo(leader.participantId());
			epochs.add(leader.epoch());
			leader.stop();
			running.remove(leader);
			running.add(start(leader.participantId()));
		}
		assertThat(epochs).isSorted().doesNotHaveDuplicates().doesNotContain(0L);
	}

	@Test
	void listenerCallbacksRunInOrderOnOneLeadershipThreadNeverOnZooKeepersEventThread() throws Exception {
		CuratorFramework client = zk.newClient();
		ZkLeaderElection election = election(client, "a");
		RecordingListener listener = new RecordingListener();
		election.addListener(listener);
		election.start();
		await().atMost(Duration.ofSeconds(5)).until(() -> listener.events.size() == 1);
		// the client-side expiry reaches the election as LOST, or first through the lease, whose session
		// changed (a server-side one suspends first)
		ZooKeeperExtension.injectSessionExpiration(client);
		await().atMost(Duration.ofSeconds(10)).until(() -> listener.events.size() == 3);
		assertThat(listener.events).extracting((event) -> event.getClass().getSimpleName())
			.containsExactly("LeadershipGrantedEvent", "LeadershipRevokedEvent", "LeadershipGrantedEvent");
		assertThat(listener.threads).hasSize(3).allMatch((name) -> name.equals("zk-leader-" + this.latchPath));
		assertThat(((LeadershipRevokedEvent) listener.events.get(1)).getReason())
			.isIn(LeadershipReason.SESSION_LOST, LeadershipReason.NODE_LOST, LeadershipReason.SESSION_IN_DOUBT);
	}

	@Test
	void suspendedConnectionRevokesAtOnceAndTheSameSessionResumesWithAGreaterEpoch() throws Exception {
		CuratorFramework client = zk.newClient();
		long session = client.getZookeeperClient().getZooKeeper().getSessionId();
		ZkLeaderElection election = election(client, "a");
		RecordingListener listener = new RecordingListener();
		election.addListener(listener);
		election.start();
		await().atMost(Duration.ofSeconds(5)).until(election::isLeader);
		long first = election.epoch();
		zk.stopServer();
		await().atMost(Duration.ofSeconds(5)).until(() -> listener.events.size() == 2);
		assertThat(election.isLeader()).isFalse();
		assertThat(election.epoch()).isZero();
		assertThat(((LeadershipRevokedEvent) listener.events.get(1)).getReason())
			.isEqualTo(LeadershipReason.CONNECTION_SUSPENDED);
		zk.restartServer();
		await().atMost(Duration.ofSeconds(10)).until(() -> listener.events.size() == 3);
		LeadershipGrantedEvent resumed = (LeadershipGrantedEvent) listener.events.get(2);
		assertThat(resumed.getReason()).isEqualTo(LeadershipReason.RECONNECTED);
		assertThat(resumed.getEpoch()).isGreaterThan(first).isEqualTo(election.epoch());
		assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(session);
	}

	@Test
	void leaderWhoseLatchNodeIsDeletedStopsLeadingAndRejoins() throws Exception {
		ZkLeaderElection a = start("a");
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		ZkLeaderElection b = start("b");
		RecordingListener listener = new RecordingListener();
		a.addListener(listener);
		await().atMost(Duration.ofSeconds(5)).until(() -> a.participants().size() == 2);
		CuratorFramework operator = zk.newClient();
		String node = operator.getChildren().forPath(this.latchPath).stream().sorted((x, y) -> sequence(x) - sequence(y))
			.findFirst().orElseThrow();
		operator.delete().forPath(this.latchPath + "/" + node);
		await().atMost(Duration.ofSeconds(5)).until(b::isLeader);
		assertThat(a.isLeader()).isFalse();
		assertThat(listener.events).last()
			.isInstanceOfSatisfying(LeadershipRevokedEvent.class,
					(event) -> assertThat(event.getReason()).isEqualTo(LeadershipReason.NODE_LOST));
		await().atMost(Duration.ofSeconds(5)).until(() -> b.participants().equals(List.of("b", "a")));
	}

	@Test
	void leaderNoticesTheDeletionOfItsLatchNodeAfterSomeoneElseWroteToIt() throws Exception {
		ZkLeaderElection a = start("a");
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		start("b");
		await().atMost(Duration.ofSeconds(5)).until(() -> a.participants().size() == 2);
		CuratorFramework operator = zk.newClient();
		String node = this.latchPath + "/" + operator.getChildren().forPath(this.latchPath).stream()
			.sorted((x, y) -> sequence(x) - sequence(y)).findFirst().orElseThrow();
		// the write spends the one-shot watch on a's node; the deletion after it must still be noticed
		operator.setData().forPath(node, "a".getBytes(StandardCharsets.UTF_8));
		operator.delete().forPath(node);
		// (b may not take over: Curator's latch watch on its predecessor is spent by the same write)
		await().atMost(Duration.ofSeconds(5)).until(() -> !a.isLeader());
	}

	@Test
	void leaderWhoseSessionExpiredRejoinsAndLeadsAgainWhenItsSuccessorStops() throws Exception {
		CuratorFramework client = zk.newClient();
		ZkLeaderElection a = election(client, "a");
		a.start();
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		ZkLeaderElection b = start("b");
		await().atMost(Duration.ofSeconds(5)).until(() -> a.participants().size() == 2);
		ZooKeeperExtension.expireSession(client);
		await().atMost(Duration.ofSeconds(5)).until(b::isLeader);
		await().atMost(Duration.ofSeconds(5)).until(() -> b.participants().equals(List.of("b", "a")));
		b.stop();
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		assertThat(a.leaderId()).contains("a");
	}

	@Test
	void gracefulStopHandsOverWithoutTheTakeoverDelay() throws Exception {
		ZkLeaderElection a = start("a", Duration.ofSeconds(30));
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		ZkLeaderElection b = start("b", Duration.ofSeconds(30));
		await().atMost(Duration.ofSeconds(5)).until(() -> a.participants().size() == 2);
		long stopping = System.nanoTime();
		a.stop();
		await().atMost(Duration.ofSeconds(5)).until(b::isLeader);
		assertThat(Duration.ofNanos(System.nanoTime() - stopping)).isLessThan(Duration.ofSeconds(1));
	}

	@Test
	void successorOfALeaderThatLostItsSessionWaitsTheTakeoverDelay() throws Exception {
		CuratorFramework client = zk.newClient();
		ZkLeaderElection a = election(client, "a", Duration.ofSeconds(2));
		a.start();
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		ZkLeaderElection b = start("b", Duration.ofSeconds(2));
		await().atMost(Duration.ofSeconds(5)).until(() -> a.participants().size() == 2);
		long expired = System.nanoTime();
		ZooKeeperExtension.expireSession(client);
		await().atMost(Duration.ofSeconds(10)).until(b::isLeader);
		assertThat(Duration.ofNanos(System.nanoTime() - expired)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
	}

	private static int sequence(String node) {
		return Integer.parseInt(node.substring(node.length() - 10));
	}

	private ZkLeaderElection start(String id) throws InterruptedException {
		return start(id, Duration.ofSeconds(1));
	}

	private ZkLeaderElection start(String id, Duration takeoverDelay) throws InterruptedException {
		ZkLeaderElection election = election(zk.newClient(), id, takeoverDelay);
		election.start();
		return election;
	}

	private ZkLeaderElection election(CuratorFramework client, String id) {
		return election(client, id, Duration.ofSeconds(1));
	}

	private ZkLeaderElection election(CuratorFramework client, String id, Duration takeoverDelay) {
		ZkLeaderElection election = new ZkLeaderElection(client, this.latchPath, () -> id, Duration.ofSeconds(1),
				takeoverDelay);
		this.elections.add(election);
		return election;
	}

	private static ZkLeaderElection awaitOneLeader(List<ZkLeaderElection> elections) {
		await().atMost(Duration.ofSeconds(10))
			.until(() -> elections.stream().filter(ZkLeaderElection::isLeader).count() == 1);
		return elections.stream().filter(ZkLeaderElection::isLeader).findFirst().orElseThrow();
	}

	static class RecordingListener implements LeadershipListener {

		final List<ApplicationEvent> events = new CopyOnWriteArrayList<>();

		final List<String> threads = new CopyOnWriteArrayList<>();

		@Override
		public void leadershipGranted(LeadershipGrantedEvent event) {
			this.threads.add(Thread.currentThread().getName());
			this.events.add(event);
		}

		@Override
		public void leadershipRevoked(LeadershipRevokedEvent event) {
			this.threads.add(Thread.currentThread().getName());
			this.events.add(event);
		}

	}

}
