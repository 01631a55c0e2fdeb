package dev.zkspring.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;

import dev.zkspring.leader.term.Drainable;
import dev.zkspring.leader.term.Term;

/**
 * The election's one leadership thread: runs its tasks in order and tells listeners, then the
 * application, about each grant and revocation, always in pairs, never on ZooKeeper's event thread.
 */
final class LeadershipAnnouncer {

	private static final Log logger = LogFactory.getLog(ZkLeaderElection.class);

	private final ZkLeaderElection election;

	private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();

	private volatile @Nullable ApplicationEventPublisher publisher;

	private volatile @Nullable ExecutorService executor;

	/** Only touched on the leadership thread: the term the listeners were last told was granted. */
	private @Nullable Term announced;

	private @Nullable String lastRevokedPath;

	private @Nullable LeadershipReason lastRevokeReason;

	LeadershipAnnouncer(ZkLeaderElection election) {
		this.election = election;
	}

	void setPublisher(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	void start() {
		this.executor = Executors.newSingleThreadExecutor((runnable) -> {
			Thread thread = new Thread(runnable, "zk-leader-" + this.election.latchPath());
			thread.setDaemon(true);
			return thread;
		});
	}

	void shutdown() {
		ExecutorService current = this.executor;
		if (current != null) {
			current.shutdownNow();
		}
	}

	/** Run a task on the leadership thread after those already queued; dropped once stopped. */
	void inOrder(Runnable task) {
		ExecutorService current = this.executor;
		if (current == null) {
			return;
		}
		try {
			current.execute(() -> {
				try {
					task.run();
				}
				catch (RuntimeException ex) {
					logger.warn("Leadership task for " + this.election.latchPath() + " failed", ex);
				}
			});
		}
		catch (RejectedExecutionException ex) {
			// stopped: nothing more to tell
		}
	}

	@Nullable Future<?> submit(Runnable task) {
		ExecutorService current = this.executor;
		try {
			return (current != null) ? current.submit(task) : null;
		}
		catch (RejectedExecutionException ex) {
			return null;
		}
	}

	void addListener(LeadershipListener listener) {
		this.listeners.add(listener);
		inOrder(() -> {
			Term current = this.announced;
			if (current != null && this.listeners.contains(listener)) {
				listener.leadershipGranted(grantedEvent(current, LeadershipReason.ELECTED));
			}
		});
	}

	void removeListener(LeadershipListener listener) {
		this.listeners.remove(listener);
	}

	/** Wait for the work of every drainable listener, sharing one timeout; whether all of it ended. */
	boolean drain(Duration timeout) {
		long deadline = System.nanoTime() + timeout.toNanos();
		boolean drained = true;
		for (LeadershipListener listener : this.listeners) {
			if (listener instanceof Drainable drainable) {
				drained &= drainable.awaitDrained(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
			}
		}
		return drained;
	}

	/** On the leadership thread: tell everyone about a term the election has just committed. */
	void announceGranted(Term granted) {
		LeadershipReason reason = (granted.path().equals(this.lastRevokedPath)
				&& (this.lastRevokeReason == LeadershipReason.CONNECTION_SUSPENDED
						|| this.lastRevokeReason == LeadershipReason.SESSION_IN_DOUBT)) ? LeadershipReason.RECONNECTED
								: LeadershipReason.ELECTED;
		this.announced = granted;
		logger.info("Leadership of " + this.election.latchPath() + " granted to " + this.election.participantId()
				+ " (epoch " + granted.epoch() + ", " + reason + ")");
		LeadershipGrantedEvent event = grantedEvent(granted, reason);
		for (LeadershipListener listener : this.listeners) {
			try {
				listener.leadershipGranted(event);
			}
			catch (RuntimeException ex) {
				logger.warn("Leadership listener failed on grant", ex);
			}
		}
		publish(event);
	}

	/** On the leadership thread: tell everyone a term ended, if they were told it began. */
	void announceRevoked(Term old, LeadershipReason reason) {
		if (this.announced != old) {
			return;
		}
		this.announced = null;
		this.lastRevokedPath = old.path();
		this.lastRevokeReason = reason;
		LeadershipRevokedEvent event = new LeadershipRevokedEvent(this.election, this.election.participantId(),
				old.epoch(), reason);
		for (LeadershipListener listener : this.listeners) {
			try {
				listener.leadershipRevoked(event);
			}
			catch (RuntimeException ex) {
				logger.warn("Leadership listener failed on revocation", ex);
			}
		}
		publish(event);
	}

	private LeadershipGrantedEvent grantedEvent(Term granted, LeadershipReason reason) {
		return new LeadershipGrantedEvent(this.election, this.election.participantId(), granted.epoch(), reason);
	}

	private void publish(Object event) {
		ApplicationEventPublisher current = this.publisher;
		if (current != null) {
			try {
				current.publishEvent(event);
			}
			catch (RuntimeException ex) {
				logger.warn("Could not publish " + event, ex);
			}
		}
	}

}
