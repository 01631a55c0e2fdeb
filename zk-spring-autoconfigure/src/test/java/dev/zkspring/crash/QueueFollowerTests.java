package dev.zkspring.crash;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.client.PeerWatch;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The follower of a place in line reads the line only when the node ahead of it or its own node goes: a
 * member leaving elsewhere in the line costs it nothing (at N = 200 a watch on the whole line made every
 * member read it on every change: 879 requests for one failover). The first in line watches the last.
 */
class QueueFollowerTests {

	private static final String LINE = "/line";

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@RegisterExtension
	final Closing closing = new Closing();

	@Test
	void aMemberLeavingBehindDoesNotWakeTheFollowerAndTheOneAheadLeavingMovesIt() throws Exception {
		List<CuratorFramework> members = new ArrayList<>();
		List<String> nodes = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			join(members, nodes);
		}
		AtomicReference<String> watched = new AtomicReference<>();
		PeerWatch peers = (node, session) -> {
			watched.set(node);
			return () -> watched.compareAndSet(node, null);
		};
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
		this.closing.add(executor::shutdownNow);
		String ours = nodes.get(2);
		QueueFollower follower = new QueueFollower(client(), peers, executor, LINE, () -> ours);
		this.closing.add(follower::close);
		follower.refreshSoon();
		await().atMost(Duration.ofSeconds(5)).until(() -> nodes.get(1).equals(watched.get()));
		assertThat(follower.reads()).isEqualTo(1);

		// the member behind us leaves, then the one ahead: events of one session arrive in order, so a read
		// for the first would come before the one the second needs
		members.get(3).delete().forPath(nodes.get(3));
		members.get(1).delete().forPath(nodes.get(1));

		await().atMost(Duration.ofSeconds(5)).until(() -> nodes.get(0).equals(watched.get()));
		assertThat(follower.reads()).as("reads of the line: at the start and when the node ahead went").isEqualTo(2);

		// the leader goes: we are first and alone, following nobody (read once more, to watch the line)
		members.get(0).close();
		await().atMost(Duration.ofSeconds(5)).until(() -> watched.get() == null);
		assertThat(follower.reads()).isEqualTo(4);
	}

	@Test
	void theFirstInLineWatchesTheLastWhomNobodyBehindWatches() throws Exception {
		List<CuratorFramework> members = new ArrayList<>();
		List<String> nodes = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			join(members, nodes);
		}
		AtomicReference<String> watched = new AtomicReference<>();
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
		this.closing.add(executor::shutdownNow);
		String ours = nodes.get(0);
		QueueFollower follower = new QueueFollower(client(), (node, session) -> {
			watched.set(node);
			return () -> watched.compareAndSet(node, null);
		}, executor, LINE, () -> ours);
		this.closing.add(follower::close);
		follower.refreshSoon();
		await().atMost(Duration.ofSeconds(5)).until(() -> nodes.get(2).equals(watched.get()));

		// a member joins at the end: the leader's watch moves to it
		join(members, nodes);
		await().atMost(Duration.ofSeconds(5)).until(() -> nodes.get(3).equals(watched.get()));

		// the last leaves, then the middle one: back to the one now last
		members.get(3).delete().forPath(nodes.get(3));
		await().atMost(Duration.ofSeconds(5)).until(() -> nodes.get(2).equals(watched.get()));
		members.get(1).delete().forPath(nodes.get(1));
		members.get(2).delete().forPath(nodes.get(2));
		await().atMost(Duration.ofSeconds(5)).until(() -> watched.get() == null);
	}

	private void join(List<CuratorFramework> members, List<String> nodes) throws Exception {
		CuratorFramework member = client();
		members.add(member);
		nodes.add(member.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath(LINE + "/latch-", new byte[0]));
	}

	@Test
	void aFollowerNotYetInLineWaitsForItsNodeAndThenFollowsTheOneAhead() throws Exception {
		CuratorFramework leader = client();
		String first = leader.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath(LINE + "/latch-", new byte[0]);
		AtomicReference<String> watched = new AtomicReference<>();
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
		this.closing.add(executor::shutdownNow);
		CuratorFramework us = client();
		AtomicReference<String> ours = new AtomicReference<>(LINE + "/latch-9999999999");
		QueueFollower follower = new QueueFollower(us, (node, session) -> {
			watched.set(node);
			return () -> {
			};
		}, executor, LINE, ours::get);
		this.closing.add(follower::close);
		follower.refreshSoon();
		await().atMost(Duration.ofSeconds(5)).until(() -> follower.reads() >= 1);

		ours.set(us.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(LINE + "/latch-", new byte[0]));

		await().atMost(Duration.ofSeconds(5)).until(() -> first.equals(watched.get()));
	}

	private CuratorFramework client() throws InterruptedException {
		return this.closing.client(zk.connectString(), 10_000, null);
	}

}
