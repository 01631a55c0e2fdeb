package dev.zkspring.leader;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.jspecify.annotations.Nullable;

import dev.zkspring.client.SessionLease;
import dev.zkspring.leader.term.Term;

/**
 * The election's state machine: joins the latch, confirms its leadership in ZooKeeper (serving the
 * takeover delay after an abrupt predecessor), grants a {@link Term} on the leadership thread, and
 * revokes it at once on a lapsed lease, a suspended connection, a lost session or a lost latch node.
 * Curator's threads only mark state and queue work; drains and re-joins run on the leadership thread.
 * Over 300 lines because the claim, the grant, the step back and the revocation share one generation
 * counter and one lock: read apart, the checks that keep a stale grant from landing would be hard to follow.
 */
final class LeadershipCycle {

	private static final Log logger = LogFactory.getLog(ZkLeaderElection.class);

	/** Beyond the drain, how long a stop without ZooKeeper waits for the latch to close: no write is waited for. */
	private static final long UNREACHABLE_GRACE_MILLIS = 1_000;

	private final ZkLeaderElection election;

	private final CuratorFramework client;

	private final String latchPath;

	private final LeadershipAnnouncer announcer;

	private final Duration drainTimeout;

	private final LatchClaims claims;

	private final SessionLease.Listener leaseListener = new SessionLease.Listener() {

		@Override
		public void lapsed() {
			// on the lease's thread: mark state only; listeners hear of it on the leadership thread
			revokeNow(LeadershipReason.SESSION_IN_DOUBT);
		}

		@Override
		public void granted() {
			inOrder(LeadershipCycle.this.claims::tryToLead);
		}

	};

	private final Object monitor = new Object();

	private final ConnectionStateListener connectionListener = (client, state) -> connectionStateChanged(state);

	private final LeaderLatchListener latchListener = new LeaderLatchListener() {

		@Override
		public void isLeader() {
			inOrder(LeadershipCycle.this.claims::tryToLead);
		}

		@Override
		public void notLeader() {
			// while disconnected, the connection listener revokes for the same state change, with its reason
			if (LeadershipCycle.this.client.getZookeeperClient().isConnected()) {
				revokeNow(LeadershipReason.NODE_LOST);
			}
		}

	};

	private volatile @Nullable Term term;

	/** Bumped by every revocation, so a confirmation that raced with one is not committed. */
	private long generation;

	private volatile boolean running;

	private volatile @Nullable LatchSeat seat;

	/** While a step back (see {@link #stepBack()}) is under way: no claim until the latch is re-joined. */
	private volatile boolean steppingBack;

	LeadershipCycle(ZkLeaderElection election, CuratorFramework client, LeadershipAnnouncer announcer,
			Duration drainTimeout, Duration takeoverDelay) {
		this.election = election;
		this.client = client;
		this.latchPath = election.latchPath();
		this.announcer = announcer;
		this.drainTimeout = drainTimeout;
		this.claims = new LatchClaims(this, announcer, takeoverDelay);
	}

	/** The current leadership, whether or not its lease is valid now; {@code null} while none. */
	@Nullable Term term() {
		return this.term;
	}

	@Nullable LatchSeat seat() {
		return this.seat;
	}

	boolean isRunning() {
		return this.running;
	}

	String latchPath() {
		return this.latchPath;
	}

	SessionLease lease() {
		return this.election.leaseNow();
	}

	/**
	 * Listen, then join the latch.
	 * @param prepare run first, under the monitor, when not running yet
	 * @return false when already running
	 */
	boolean start(Runnable prepare) {
		synchronized (this.monitor) {
			if (this.running) {
				return false;
			}
			prepare.run();
			this.announcer.start();
			// listen before anything is read, so no state change can fall between a read and the listener
			this.client.getConnectionStateListenable().addListener(this.connectionListener);
			lease().addListener(this.leaseListener);
			this.running = true;
		}
		inOrder(this::join);
		return true;
	}

	/**
	 * Standby and revoke at once, drain running work up to the drain timeout, then release the latch
	 * node (with the release mark only when drained) and stop listening. With ZooKeeper already out of
	 * reach (the instance that hosted it stopped first), nothing is written: the node goes with the session,
	 * and the stop waits for running work only, with one line saying so.
	 * @return false when not running
	 */
	boolean stop() {
		Term held;
		synchronized (this.monitor) {
			if (!this.running) {
				return false;
			}
			this.running = false;
			held = this.term;
		}
		revokeNow(LeadershipReason.SHUTDOWN);
		boolean reachable = reachable();
		if (!reachable) {
			logger.info("ZooKeeper is out of reach: leaving leader election at " + this.latchPath
					+ " without removing this instance's node, which goes when its session ends");
		}
		try {
			Future<?> released = this.announcer.submit(() -> {
				boolean drained = drainListeners();
				LatchSeat current = this.seat;
				// checked again: ZooKeeper may have gone while running work drained
				if (held != null && drained && current != null && reachable()) {
					current.markReleased(held.version());
				}
				leave();
			});
			if (released != null) {
				released.get(this.drainTimeout.toMillis() + (reachable ? 5_000 : UNREACHABLE_GRACE_MILLIS),
						TimeUnit.MILLISECONDS);
			}
		}
		catch (TimeoutException ex) {
			if (reachable()) {
				logger.warn("Leadership of " + this.latchPath + " was not released in time; closing the latch anyway", ex);
			}
			leave();
		}
		catch (Exception ex) {
			logger.warn("Leadership of " + this.latchPath + " was not released in time; closing the latch anyway", ex);
			leave();
		}
		finally {
			this.client.getConnectionStateListenable().removeListener(this.connectionListener);
			lease().removeListener(this.leaseListener);
		}
		return true;
	}

	private boolean reachable() {
		return this.client.getZookeeperClient().isConnected();
	}

	/**
	 * Hand leadership to the next participant while staying in the election: revoke at once, drain on the
	 * leadership thread, release the latch node with the release mark when drained, then re-join at the back.
	 * @return false when this instance does not lead or a step back is under way
	 */
	boolean stepBack() {
		synchronized (this.monitor) {
			if (!this.running || this.term == null || this.steppingBack) {
				return false;
			}
			this.steppingBack = true;
		}
		Term held = this.term;
		revokeNow(LeadershipReason.REBALANCED);
		inOrder(() -> {
			try {
				LatchSeat current = this.seat;
				if (drainListeners() && held != null && current != null) {
					current.markReleased(held.version());
				}
				leave();
			}
			finally {
				this.steppingBack = false;
			}
			join();
		});
		return true;
	}

	private void connectionStateChanged(ConnectionState state) {
		// on Curator's connection-state thread, shared by every component: mark state, never wait here
		switch (state) {
			case CONNECTED, RECONNECTED -> inOrder(this.claims::tryToLead);
			case LOST -> {
				revokeNow(LeadershipReason.SESSION_LOST);
				// on the leadership thread, before any re-claim queued behind it: the old term's work ends first
				inOrder(this::drainListeners);
			}
			default -> revokeNow(LeadershipReason.CONNECTION_SUSPENDED);
		}
	}

	/** Stop acting as leader on the calling thread; listeners hear of it on the leadership thread. */
	void revokeNow(LeadershipReason reason) {
		Term old;
		synchronized (this.monitor) {
			this.generation++;
			old = this.term;
			this.term = null;
		}
		if (old != null) {
			logger.info("Leadership of " + this.latchPath + " revoked (epoch " + old.epoch() + ", " + reason + ")");
			inOrder(() -> this.announcer.announceRevoked(old, reason));
		}
	}

	/**
	 * For a claim, on the leadership thread: the generation to commit a grant under, or -1 when this
	 * instance should not claim now (not running, leading already, or its latch does not lead).
	 */
	long claimableGeneration(LatchSeat current) {
		synchronized (this.monitor) {
			if (!this.running || this.term != null || this.steppingBack || !current.latchLeads()) {
				return -1;
			}
			return this.generation;
		}
	}

	/** Whether no revocation happened since the given generation, and the election still runs. */
	boolean isCurrent(long expectedGeneration) {
		synchronized (this.monitor) {
			return this.running && expectedGeneration == this.generation;
		}
	}

	/**
	 * Commit a confirmed claim as the current term, unless revoked meanwhile or the claim's reply is no
	 * longer within the session's lease: the grant, too, asks the lease.
	 */
	boolean grant(Term granted, long expectedGeneration, SessionLease lease) {
		synchronized (this.monitor) {
			if (!this.running || expectedGeneration != this.generation || !lease.isValidFor(granted.session())) {
				return false;
			}
			this.term = granted;
			return true;
		}
	}

	void join() {
		if (!this.running) {
			return;
		}
		LatchSeat joined = new LatchSeat(this.client, this.latchPath, this.election.participantId(), this.latchListener);
		this.seat = joined;
		try {
			joined.start();
		}
		catch (Exception ex) {
			logger.error("Could not join leader election at " + this.latchPath, ex);
		}
	}

	void leave() {
		LatchSeat current = this.seat;
		this.seat = null;
		if (current != null) {
			current.close();
		}
	}

	boolean drainListeners() {
		return this.announcer.drain(this.drainTimeout);
	}

	void inOrder(Runnable task) {
		this.announcer.inOrder(task);
	}

}
