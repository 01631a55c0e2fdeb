package dev.zkspring.lock;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.ApplicationEventPublisher;

/**
 * Tells the world about lost holds, after the holds were marked: logs, interrupts the holders when
 * {@code zk.lock.interrupt-on-loss} asks for it, publishes {@link ZkLockLostEvent}s. Runs on a thread
 * of its own, so a slow or throwing listener delays no lock state, no other key, and not Curator's
 * connection-state thread (which the config watcher, leadership and health share).
 */
final class LockLosses {

	private static final Log logger = LogFactory.getLog(LockLosses.class);

	private final ExecutorService executor = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "zk-lock-losses");
		thread.setDaemon(true);
		return thread;
	});

	private final Object source;

	private final ApplicationEventPublisher publisher;

	private final boolean interruptOnLoss;

	LockLosses(Object source, ApplicationEventPublisher publisher, boolean interruptOnLoss) {
		this.source = source;
		this.publisher = publisher;
		this.interruptOnLoss = interruptOnLoss;
	}

	/** Tell, later and elsewhere, that these holds of the key were lost for the reason. */
	void report(KeyLock keyLock, List<ZkLockContext> lost, ZkLockLostEvent.Reason reason) {
		try {
			this.executor.execute(() -> tell(keyLock, lost, reason));
		}
		catch (RejectedExecutionException ex) {
			logger.debug("Lock registry closed; not reporting the loss of '" + keyLock.key + "'");
		}
	}

	void close() {
		this.executor.shutdownNow();
	}

	private void tell(KeyLock keyLock, List<ZkLockContext> lost, ZkLockLostEvent.Reason reason) {
		logger.warn("Lock '" + keyLock.key + "' (" + keyLock.path + ") is no longer held: " + describe(reason) + "; "
				+ lost.size() + " holder(s) affected");
		if (this.interruptOnLoss) {
			lost.forEach(ZkLockContext::interruptIfInside);
		}
		lost.forEach(LockLosses::tellHold);
		try {
			this.publisher.publishEvent(new ZkLockLostEvent(this.source, keyLock.key, keyLock.path, reason));
		}
		catch (RuntimeException ex) {
			logger.warn("A listener of ZkLockLostEvent for '" + keyLock.key + "' failed: " + ex);
		}
	}

	private static void tellHold(ZkLockContext context) {
		try {
			context.tellLost();
		}
		catch (RuntimeException ex) {
			logger.warn("Telling a holder of '" + context.getKey() + "' about its loss failed: " + ex);
		}
	}

	private static String describe(ZkLockLostEvent.Reason reason) {
		return switch (reason) {
			case SUSPENDED -> "connection SUSPENDED";
			case LOST -> "session LOST";
			case LAPSED -> "session lease lapsed (no reply from ZooKeeper in time, e.g. after a pause)";
			case DELETED -> "its lock node was deleted by another client";
		};
	}

}
