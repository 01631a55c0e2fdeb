package dev.zkspring.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

import dev.zkspring.client.PeerWatch;
import dev.zkspring.client.SessionLease;

/**
 * The locks of one JVM (one client session): a {@link KeyLock} per key while some thread waits for
 * or holds it, removed when the last one is done. Reentrancy is per thread per key and never touches
 * ZooKeeper. Listens to the client's connection state and to the session lease: on SUSPENDED, LOST or a
 * lapse it first counts the interruption and marks every hold lost (no I/O, no events), then hands the
 * telling to {@link LockLosses}.
 * <p>
 * Over 300 lines because acquisition, hand-off and loss share one map and its lock; the node work is in JvmNode and KeyLock.
 */
final class LockRegistry implements ConnectionStateListener, SessionLease.Listener {

	final CuratorFramework client;

	final SessionLease lease;

	/** Test hooks between steps; {@link LockHooks#NONE} in use. */
	volatile LockHooks hooks = LockHooks.NONE;

	final String root;

	/** Watches the holder this JVM waits behind, so its crash ends its session at once; none by default. */
	volatile PeerWatch peers = PeerWatch.NONE;

	/** {@link Turn#QUIET_FOR_NANOS}; tests shorten or lengthen it. */
	volatile long quietForNanos = Turn.QUIET_FOR_NANOS;

	final int maxLocalHandoffs;

	private final LockLosses losses;

	/** Connection interruptions and lease lapses so far; a turn confirmed under an older count is in doubt. */
	private final AtomicLong epoch = new AtomicLong();

	private final ConcurrentHashMap<String, KeyLock> locks = new ConcurrentHashMap<>();

	private final AtomicLong lostLocks = new AtomicLong();

	private final AtomicLong attempts = new AtomicLong();

	/** Starts the name of every node this registry creates, so it can tell its own strays. */
	final String jvmPrefix = Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE) + "-";

	LockRegistry(CuratorFramework client, SessionLease lease, String root, int maxLocalHandoffs,
			boolean interruptOnLoss, ApplicationEventPublisher publisher) {
		this.client = client;
		this.lease = lease;
		this.root = root;
		this.maxLocalHandoffs = maxLocalHandoffs;
		this.losses = new LockLosses(client, publisher, interruptOnLoss);
		client.getConnectionStateListenable().addListener(this);
		lease.addListener(this);
	}

	/**
	 * Take the lock, waiting up to {@code wait}; zero tries once.
	 * @return the hold, or {@code null} when the key stayed busy
	 */
	@Nullable ZkLockContext acquire(String key, ZkLock.Mode mode, Duration wait) {
		String path = LockKeys.path(this.root, key);
		ZkLockContext held = ZkLockContext.heldByCurrentThread(this, path);
		if (held != null) {
			if (held.getMode().isShared() && !mode.isShared()) {
				throw new ZkLockUpgradeException(key, mode);
			}
			held.reenter();
			return held;
		}
		long deadline = deadline(wait);
		awaitConnected(key, deadline);
		KeyLock keyLock = this.locks.compute(path, (p, existing) -> {
			KeyLock result = (existing != null) ? existing : new KeyLock(this, key, path);
			result.refs++;
			return result;
		});
		Lock local = localLock(keyLock, mode);
		boolean admitted = false;
		ZkLockContext context = null;
		try {
			admitted = local.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			if (admitted) {
				context = keyLock.enter(mode, deadline, wait.isZero());
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ZkLockInterruptedException(key, ex);
		}
		finally {
			if (context == null) {
				if (admitted) {
					local.unlock();
				}
				unreference(keyLock);
			}
		}
		if (context != null) {
			context.push();
		}
		return context;
	}

	/** Leave one level of the hold; the last level releases it. Must run on the thread that acquired it. */
	void release(ZkLockContext context) {
		if (context.exit()) {
			return;
		}
		KeyLock keyLock = context.keyLock;
		try {
			keyLock.leave(context, keyLock.refs > 1);
			this.hooks.left(keyLock.key);
		}
		finally {
			localLock(keyLock, context.getMode()).unlock();
			this.hooks.localLockReleased(keyLock.key);
			unreference(keyLock);
		}
	}

	String nextAttempt() {
		return this.jvmPrefix + this.attempts.incrementAndGet() + "-";
	}

	/** How many threads of this JVM are queued locally for the key (for diagnostics and tests). */
	int waiting(String key) {
		KeyLock keyLock = this.locks.get(LockKeys.path(this.root, key));
		return (keyLock != null) ? keyLock.local.getQueueLength() : 0;
	}

	/** A snapshot of the locks this JVM holds now, for the actuator endpoint. */
	List<ZkHeldLock> heldLocks() {
		List<ZkHeldLock> held = new ArrayList<>();
		for (KeyLock keyLock : this.locks.values()) {
			int waiting = keyLock.local.getQueueLength();
			for (ZkLockContext context : keyLock.holds()) {
				if (context.isHeld()) {
					held.add(new ZkHeldLock(context.getKey(), context.getMode(), context.knownFencingToken(),
							context.since, waiting));
				}
			}
		}
		return held;
	}

	long lostLocks() {
		return this.lostLocks.get();
	}

	long epoch() {
		return this.epoch.get();
	}

	void close() {
		this.client.getConnectionStateListenable().removeListener(this);
		this.lease.removeListener(this);
		this.losses.close();
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState newState) {
		if (newState == ConnectionState.SUSPENDED) {
			putAllInDoubt(ZkLockLostEvent.Reason.SUSPENDED);
		}
		else if (newState == ConnectionState.LOST) {
			putAllInDoubt(ZkLockLostEvent.Reason.LOST);
		}
	}

	@Override
	public void lapsed() {
		putAllInDoubt(ZkLockLostEvent.Reason.LAPSED);
	}

	/** Mark every hold first (fast, no I/O, nothing called), then let {@link LockLosses} tell. */
	private void putAllInDoubt(ZkLockLostEvent.Reason reason) {
		this.epoch.incrementAndGet();
		List<KeyLock> keys = new ArrayList<>();
		List<List<ZkLockContext>> lost = new ArrayList<>();
		for (KeyLock keyLock : this.locks.values()) {
			List<ZkLockContext> marked = keyLock.putInDoubt();
			if (!marked.isEmpty()) {
				keys.add(keyLock);
				lost.add(marked);
			}
		}
		for (int i = 0; i < keys.size(); i++) {
			this.lostLocks.incrementAndGet();
			this.losses.report(keys.get(i), lost.get(i), reason);
		}
	}

	/** The JVM's node of a turn was deleted by someone else while it held the key: a loss, at once. */
	void nodeDeleted(KeyLock keyLock) {
		List<ZkLockContext> marked = keyLock.putInDoubt();
		if (!marked.isEmpty()) {
			this.lostLocks.incrementAndGet();
			this.losses.report(keyLock, marked, ZkLockLostEvent.Reason.DELETED);
		}
	}

	/** Wait for the connection up to the client's connection timeout (but not past the deadline). */
	void awaitConnected(String key, long deadline) {
		if (this.client.getZookeeperClient().isConnected()) {
			return;
		}
		long timeout = Math.min(TimeUnit.MILLISECONDS.toNanos(this.client.getZookeeperClient().getConnectionTimeoutMs()),
				deadline - System.nanoTime());
		try {
			if (timeout > 0 && this.client.blockUntilConnected((int) TimeUnit.NANOSECONDS.toMillis(timeout),
					TimeUnit.MILLISECONDS)) {
				return;
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ZkLockInterruptedException(key, ex);
		}
		throw notConnected(key);
	}

	void checkConnected(String key) {
		if (!this.client.getZookeeperClient().isConnected()) {
			throw notConnected(key);
		}
	}

	/**
	 * What a failed request of an acquisition throws: an interruption as such (the flag set again, also
	 * when Curator turned it into a failed retry), never as "unavailable", which callers may retry.
	 */
	RuntimeException failure(String key, Exception ex) {
		if (ex instanceof RuntimeException runtime) {
			return runtime;
		}
		if (ex instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
			Thread.currentThread().interrupt();
			return new ZkLockInterruptedException(key, ex);
		}
		return unavailable(key, ex);
	}

	ZkLockUnavailableException unavailable(String key, Exception ex) {
		if (ex instanceof KeeperException.ConnectionLossException
				|| ex instanceof KeeperException.SessionExpiredException) {
			return new ZkLockUnavailableException(key, "Lost the connection to ZooKeeper while taking lock '" + key
					+ "'; the lock may or may not be held elsewhere.", ex);
		}
		return new ZkLockUnavailableException(key, "ZooKeeper failed while taking lock '" + key + "' under "
				+ this.root + ": " + ex.getMessage(), ex);
	}

	private ZkLockUnavailableException notConnected(String key) {
		return new ZkLockUnavailableException(key, "ZooKeeper is not connected, so lock '" + key
				+ "' cannot be taken; the client is reconnecting (zk.connection-timeout elapsed or the wait ended).",
				null);
	}

	private void unreference(KeyLock keyLock) {
		boolean[] idle = new boolean[1];
		this.locks.computeIfPresent(keyLock.path, (path, existing) -> {
			if (existing != keyLock) {
				return existing;
			}
			if (--existing.refs == 0) {
				idle[0] = true;
				return null;
			}
			return existing;
		});
		if (idle[0]) {
			keyLock.releaseIfIdle();
		}
	}

	private static Lock localLock(KeyLock keyLock, ZkLock.Mode mode) {
		return mode.isShared() ? keyLock.local.readLock() : keyLock.local.writeLock();
	}

	private static long deadline(Duration wait) {
		long now = System.nanoTime();
		long nanos = (wait.compareTo(Duration.ofDays(365)) > 0) ? Duration.ofDays(365).toNanos() : wait.toNanos();
		return now + nanos;
	}

}
