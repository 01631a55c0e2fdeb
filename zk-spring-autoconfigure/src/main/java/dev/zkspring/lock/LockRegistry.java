package dev.zkspring.lock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

/**
 * The locks of one JVM (one client session): a {@link KeyLock} per key while some thread waits for
 * or holds it, removed when the last one is done. Reentrancy is per thread per key and never touches
 * ZooKeeper. Listens to the client's connection state to mark holds lost.
 */
final class LockRegistry implements ConnectionStateListener {

	private static final Log logger = LogFactory.getLog(LockRegistry.class);

	final CuratorFramework client;

	final String root;

	final int maxLocalHandoffs;

	private final boolean interruptOnLoss;

	private final ApplicationEventPublisher publisher;

	private final ConcurrentHashMap<String, KeyLock> locks = new ConcurrentHashMap<>();

	private final AtomicLong lostLocks = new AtomicLong();

	private final AtomicLong attempts = new AtomicLong();

	/** Starts the name of every node this registry creates, so it can tell its own strays. */
	final String jvmPrefix = Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE) + "-";

	LockRegistry(CuratorFramework client, String root, int maxLocalHandoffs, boolean interruptOnLoss,
			ApplicationEventPublisher publisher) {
		this.client = client;
		this.root = root;
		this.maxLocalHandoffs = maxLocalHandoffs;
		this.interruptOnLoss = interruptOnLoss;
		this.publisher = publisher;
		client.getConnectionStateListenable().addListener(this);
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
			throw new ZkLockUnavailableException(key, "Interrupted while waiting for lock '" + key + "'.", ex);
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
		}
		finally {
			localLock(keyLock, context.getMode()).unlock();
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

	void close() {
		this.client.getConnectionStateListenable().removeListener(this);
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState newState) {
		if (newState != ConnectionState.SUSPENDED && newState != ConnectionState.LOST) {
			return;
		}
		ZkLockLostEvent.Reason reason = (newState == ConnectionState.LOST) ? ZkLockLostEvent.Reason.LOST
				: ZkLockLostEvent.Reason.SUSPENDED;
		for (KeyLock keyLock : this.locks.values()) {
			List<ZkLockContext> lost = keyLock.connectionInterrupted();
			if (lost.isEmpty()) {
				continue;
			}
			this.lostLocks.incrementAndGet();
			logger.warn("Lock '" + keyLock.key + "' (" + keyLock.path + ") is no longer held: connection "
					+ newState + "; " + lost.size() + " holder(s) affected");
			if (this.interruptOnLoss) {
				lost.forEach((context) -> context.thread.interrupt());
			}
			this.publisher.publishEvent(new ZkLockLostEvent(this.client, keyLock.key, keyLock.path, reason));
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
		}
		throw notConnected(key);
	}

	void checkConnected(String key) {
		if (!this.client.getZookeeperClient().isConnected()) {
			throw notConnected(key);
		}
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
