package dev.zkspring.fleet;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.WatchedEvent;
import org.jspecify.annotations.Nullable;

/**
 * Writes this instance's node on one thread. A write starts {@link #COALESCE_MILLIS} after the request
 * that queued it, and requests made meanwhile are coalesced into it: one configuration change asks
 * three times within milliseconds (the context node's watch, the change event, the refresh event), and
 * a fleet of N instances then costs the ensemble's leader N writes per change, not 3N. A document that is not settled yet (a context whose
 * newest version is neither applied nor refused, or a configuration still from the snapshot) is looked
 * at again a few times, because the config center applies a write that changes no value without an event.
 */
final class Publisher implements CuratorWatcher {

	private static final Log logger = LogFactory.getLog(ZkFleet.class);

	private static final long RECHECK_MILLIS = 500;

	private static final int RECHECKS = 20;

	/** How long a queued write waits for the requests that follow it. */
	static final long COALESCE_MILLIS = 50;

	/** The least time between writes that {@link #requestPaced()} asks for. */
	static final long PACE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

	private final CuratorFramework client;

	private final DocumentSource source;

	private final ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor((task) -> {
		Thread thread = new Thread(task, "zk-fleet-publisher");
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicBoolean queued = new AtomicBoolean();

	private final AtomicInteger rechecksLeft = new AtomicInteger();

	private final AtomicBoolean pacedQueued = new AtomicBoolean();

	/** When the last write started ({@link System#nanoTime()}). */
	private volatile long lastWriteNanos = System.nanoTime() - PACE_NANOS;

	private volatile @Nullable FleetNode node;

	private volatile boolean running;

	private @Nullable String lastFailure;

	Publisher(CuratorFramework client, DocumentSource source) {
		this.client = client;
		this.source = source;
	}

	void start(FleetNode node) {
		this.node = node;
		this.running = true;
		request();
	}

	boolean isRunning() {
		return this.running;
	}

	/** Write the node again soon, with whatever the state is then. */
	void request() {
		this.rechecksLeft.set(RECHECKS);
		queue();
	}

	/**
	 * Write the node again, but no sooner than {@link #PACE_NANOS} after the last write started: for
	 * sources that change at the rate of lock calls. A write on the same session and server per call would
	 * queue ahead of the locks' own requests; paced, a busy key costs a few writes a second, and the
	 * write that follows a burst still carries the state as it is then.
	 */
	void requestPaced() {
		this.rechecksLeft.set(RECHECKS);
		long wait = this.lastWriteNanos + PACE_NANOS - System.nanoTime();
		if (wait <= 0) {
			queue();
		}
		else if (this.running && this.pacedQueued.compareAndSet(false, true)) {
			try {
				this.thread.schedule(() -> {
					this.pacedQueued.set(false);
					queue();
				}, wait, TimeUnit.NANOSECONDS);
			}
			catch (RuntimeException ex) {
				this.pacedQueued.set(false);
			}
		}
	}

	@Override
	public void process(WatchedEvent event) {
		// a context node changed (or its watch ended with the session): look at it again
		request();
	}

	private void queue() {
		if (this.running && this.queued.compareAndSet(false, true)) {
			try {
				this.thread.schedule(this::write, COALESCE_MILLIS, TimeUnit.MILLISECONDS);
			}
			catch (RuntimeException ex) {
				this.queued.set(false);
			}
		}
	}

	private void write() {
		this.queued.set(false);
		this.lastWriteNanos = System.nanoTime();
		FleetNode node = this.node;
		if (!this.running || node == null || !this.client.getZookeeperClient().isConnected()) {
			// a reconnection requests a write
			return;
		}
		try {
			Document document = this.source.document();
			node.write(document.data());
			this.lastFailure = null;
			if (!document.settled() && this.rechecksLeft.decrementAndGet() >= 0) {
				this.thread.schedule(this::queue, RECHECK_MILLIS, TimeUnit.MILLISECONDS);
			}
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
				return;
			}
			String failure = ex.getClass().getName();
			if (!failure.equals(this.lastFailure)) {
				// once per kind of failure, not once per attempt
				logger.warn("Could not publish this instance's fleet node " + node.path() + " (" + failure
						+ "); it is written again on the next change or reconnection");
				this.lastFailure = failure;
			}
		}
	}

	/** Delete the node, waiting a little for it, and stop writing. */
	void stop() {
		this.running = false;
		FleetNode node = this.node;
		try {
			// out of reach (the instance hosting ZooKeeper stopped first): nothing to wait for, the node goes with the session
			if (node != null && !this.thread.isShutdown() && this.client.getZookeeperClient().isConnected()) {
				this.thread.submit(() -> {
					if (this.client.getZookeeperClient().isConnected()) {
						node.delete();
					}
					return null;
				}).get(5, TimeUnit.SECONDS);
			}
		}
		catch (Exception ex) {
			if (ex instanceof InterruptedException) {
				Thread.currentThread().interrupt();
			}
			logger.debug("Could not delete the fleet node " + node.path() + "; it goes with the session", ex);
		}
		finally {
			this.thread.shutdownNow();
		}
	}

	/** Builds the node's content; called on the publisher's thread while connected. */
	@FunctionalInterface
	interface DocumentSource {

		Document document() throws Exception;

	}

	/** A node's content and whether it needs looking at again. */
	record Document(byte[] data, boolean settled) {
	}

}
