package dev.zkspring.crash;

import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zkspring.client.PeerWatch;

/**
 * Follows this instance's place in a line of sequential nodes (a leader latch's) and watches the owner of
 * the node right ahead of it: the next in line watches the leader, the one behind it the next, and the
 * leader the last, so a dead leader is acted on by exactly one survivor and every dead member of the line
 * is cleared too. A member reads the line again only when the node ahead or its own node goes (a watch on
 * each, not on the line), the leader also when the line changes (its watch alone), so a member joining or
 * leaving elsewhere in the line wakes the one behind it and the leader, and a change of membership costs a
 * few requests whatever the line's length; and while we are not in line, every 200 ms until our node shows
 * (the latch may name its node only after the line changed). Runs on the detector's one thread.
 */
final class QueueFollower implements PeerWatch.Watching {

	private static final int SEQUENCE_LENGTH = 10;

	private static final long NOT_IN_LINE_POLL_MS = 200;

	private static final Comparator<String> BY_SEQUENCE = Comparator
		.comparing((String name) -> (name.length() >= SEQUENCE_LENGTH) ? name.substring(name.length() - SEQUENCE_LENGTH) : name);

	private final CuratorFramework client;

	private final PeerWatch peers;

	private final ScheduledExecutorService executor;

	private final String parent;

	private final Supplier<@Nullable String> ourNode;

	private final CuratorWatcher changed = (event) -> {
		if (event.getType() != Watcher.Event.EventType.None) {
			refreshSoon();
		}
	};

	private volatile boolean closed;

	private final java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();

	private @Nullable String followed;

	private long followedSession;

	private PeerWatch.Watching watching = PeerWatch.Watching.NONE;

	QueueFollower(CuratorFramework client, PeerWatch peers, ScheduledExecutorService executor, String parent,
			Supplier<@Nullable String> ourNode) {
		this.client = client;
		this.peers = peers;
		this.executor = executor;
		this.parent = parent;
		this.ourNode = ourNode;
	}

	String parent() {
		return this.parent;
	}

	void refreshSoon() {
		if (!this.closed) {
			this.executor.execute(this::refresh);
		}
	}

	private void refresh() {
		if (this.closed) {
			return;
		}
		String ours = this.ourNode.get();
		if (ours == null) {
			// not in line yet (the latch is creating its node)
			this.executor.schedule(this::refresh, 50, TimeUnit.MILLISECONDS);
			return;
		}
		try {
			this.reads.incrementAndGet();
			List<String> children = this.client.getChildren().forPath(this.parent);
			List<String> sorted = children.stream().sorted(BY_SEQUENCE).toList();
			int at = sorted.indexOf(ZKPaths.getNodeFromPath(ours));
			if (at < 0) {
				// our node is not in line (being created, or created again after it went) and the latch may name
				// it only after the line changed: look again shortly rather than wait for a change of the line
				follow(null, 0);
				this.executor.schedule(this::refresh, NOT_IN_LINE_POLL_MS, TimeUnit.MILLISECONDS);
				return;
			}
			// our node going (the latch left the line or joins it again) means a new place in line
			if (this.client.checkExists().usingWatcher(this.changed).forPath(ours) == null) {
				refreshSoon();
				return;
			}
			if (at == 0) {
				followLast(ZKPaths.getNodeFromPath(ours));
				return;
			}
			String ahead = ZKPaths.makePath(this.parent, sorted.get(at - 1));
			Stat stat = this.client.checkExists().usingWatcher(this.changed).forPath(ahead);
			if (stat == null) {
				refreshSoon();
				return;
			}
			follow(ahead, stat.getEphemeralOwner());
		}
		catch (Exception ex) {
			if (!this.closed) {
				this.executor.schedule(this::refresh, 1, TimeUnit.SECONDS);
			}
		}
	}

	/**
	 * The first in line closes the ring: it watches the last, whom nobody behind watches (a shard owner or a
	 * member there would otherwise be cleared only by its session timeout). It alone watches the line's
	 * membership, so a member joining at the end moves its watch: one read for it, none for the others.
	 */
	private void followLast(String ours) throws Exception {
		this.reads.incrementAndGet();
		List<String> line = this.client.getChildren().usingWatcher(this.changed).forPath(this.parent);
		String last = line.stream().max(BY_SEQUENCE).orElse(ours);
		if (last.equals(ours)) {
			follow(null, 0);
			return;
		}
		String path = ZKPaths.makePath(this.parent, last);
		Stat stat = this.client.checkExists().forPath(path);
		if (stat == null) {
			refreshSoon();
			return;
		}
		follow(path, stat.getEphemeralOwner());
	}

	/** How many times the line was read (for tests: a change elsewhere in the line must not read it). */
	int reads() {
		return this.reads.get();
	}

	private void follow(@Nullable String node, long session) {
		if (session == this.followedSession && java.util.Objects.equals(node, this.followed)) {
			return;
		}
		this.watching.close();
		this.followed = node;
		this.followedSession = session;
		this.watching = (node != null && session != 0) ? this.peers.watch(node, session) : PeerWatch.Watching.NONE;
	}

	@Override
	public void close() {
		this.closed = true;
		try {
			this.executor.execute(() -> follow(null, 0));
		}
		catch (java.util.concurrent.RejectedExecutionException ex) {
			// the detector stopped: it closed every link itself
		}
	}

}
