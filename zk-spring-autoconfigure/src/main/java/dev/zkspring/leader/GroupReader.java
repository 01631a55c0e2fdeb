package dev.zkspring.leader;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * Reads the election group for status pages and endpoints without ever making them wait on the
 * retry policy: while the client is not connected it answers the last known group at once, marked as
 * such; while connected it reads on a thread of its own and waits at most {@link #BOUND}, so a
 * connection lost mid-read costs a caller no more than that. Concurrent callers share one read.
 */
final class GroupReader {

	/** The longest a caller waits for a read while the client is connected. */
	static final Duration BOUND = Duration.ofSeconds(1);

	private static final Log logger = LogFactory.getLog(GroupReader.class);

	private final CuratorFramework client;

	private final String latchPath;

	private final ThreadPoolExecutor reads;

	private volatile ElectionGroup lastKnown = ElectionGroup.UNKNOWN;

	private @Nullable CompletableFuture<ElectionGroup> inFlight;

	GroupReader(CuratorFramework client, String latchPath) {
		this.client = client;
		this.latchPath = latchPath;
		this.reads = new ThreadPoolExecutor(1, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), (task) -> {
			Thread thread = new Thread(task, "zk-leader-group-read");
			thread.setDaemon(true);
			return thread;
		});
		this.reads.allowCoreThreadTimeOut(true);
	}

	/** The group read now, or the last known one (marked not current) when it cannot be read promptly. */
	ElectionGroup read(@Nullable LatchSeat seat) {
		if (seat == null || !this.client.getZookeeperClient().isConnected()) {
			return this.lastKnown.asLastKnown();
		}
		CompletableFuture<ElectionGroup> read;
		synchronized (this) {
			if (this.inFlight == null || this.inFlight.isDone()) {
				this.inFlight = CompletableFuture.supplyAsync(() -> readNow(seat), this.reads);
			}
			read = this.inFlight;
		}
		try {
			return read.get(BOUND.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			logger.debug("Could not read the group of " + this.latchPath + " promptly; answering the last known: " + ex);
		}
		return this.lastKnown.asLastKnown();
	}

	private ElectionGroup readNow(LatchSeat seat) {
		try {
			ElectionGroup group = seat.readGroup();
			this.lastKnown = group;
			return group;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not read the group of " + this.latchPath, ex);
		}
	}

}
