package dev.zkspring.leader;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * While ZooKeeper is away, {@code leaderId()}, {@code participants()} and {@code group()} answer at
 * once with the last known group, marked as not current, instead of waiting on the retry policy.
 */
class ElectionGroupWhileDisconnectedTests {

	/** Far below what a read through the application's retry policy waits while the server is down (seconds). */
	private static final long PROMPT_MILLIS = 200;

	@RegisterExtension
	final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final List<ZkLeaderElection> elections = new ArrayList<>();

	private final List<CuratorFramework> clients = new ArrayList<>();

	@AfterEach
	void stopAll() {
		this.elections.forEach(ZkLeaderElection::stop);
		this.clients.forEach(CuratorFramework::close);
	}

	@Test
	void answersTheLastKnownGroupAtOnceMarkedNotCurrentWhenTheServerIsDown() throws Exception {
		ZkLeaderElection a = start("a");
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		CuratorFramework clientOfB = applicationClient();
		ZkLeaderElection b = start("b", clientOfB);
		await().atMost(Duration.ofSeconds(5)).until(() -> b.participants().equals(List.of("a", "b")));
		ElectionGroup read = b.group();
		assertThat(read.current()).isTrue();
		assertThat(read.leaderId()).contains("a");
		Instant readAt = read.asOf();

		this.zk.stopServer();
		await().atMost(Duration.ofSeconds(10)).until(() -> !clientOfB.getZookeeperClient().isConnected());

		long started = System.nanoTime();
		Optional<String> leaderId = b.leaderId();
		List<String> participants = b.participants();
		ElectionGroup group = b.group();
		long tookMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();

		assertThat(tookMillis).isLessThan(PROMPT_MILLIS);
		assertThat(leaderId).contains("a");
		assertThat(participants).containsExactly("a", "b");
		assertThat(group.current()).isFalse();
		assertThat(group.stale()).isTrue();
		assertThat(group.asOf()).isNotNull().isAfterOrEqualTo(readAt);
	}

	@Test
	void answersEmptyAtOnceWhenTheGroupWasNeverRead() throws Exception {
		CuratorFramework client = applicationClient();
		ZkLeaderElection a = start("a", client);
		await().atMost(Duration.ofSeconds(5)).until(a::isLeader);
		this.zk.stopServer();
		await().atMost(Duration.ofSeconds(10)).until(() -> !a.isLeader() && !client.getZookeeperClient().isConnected());

		long started = System.nanoTime();
		ElectionGroup group = a.group();
		Optional<String> leaderId = a.leaderId();
		long tookMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();

		assertThat(tookMillis).isLessThan(PROMPT_MILLIS);
		assertThat(leaderId).isEmpty();
		assertThat(group.participants()).isEmpty();
		assertThat(group.asOf()).isNull();
		assertThat(group.stale()).isTrue();
	}

	/** A client retrying as the application's does by default (1 s base sleep, 3 retries, 10 s to connect). */
	private CuratorFramework applicationClient() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(this.zk.connectString())
			.sessionTimeoutMs(10_000)
			.connectionTimeoutMs(10_000)
			.retryPolicy(new ExponentialBackoffRetry(1_000, 3))
			.build();
		this.clients.add(client);
		client.start();
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private ZkLeaderElection start(String id) throws Exception {
		return start(id, this.zk.newClient());
	}

	private ZkLeaderElection start(String id, CuratorFramework client) {
		ZkLeaderElection election = new ZkLeaderElection(client, "/leader/group-reads", () -> id, Duration.ofSeconds(1),
				Duration.ZERO);
		this.elections.add(election);
		election.start();
		return election;
	}

}
