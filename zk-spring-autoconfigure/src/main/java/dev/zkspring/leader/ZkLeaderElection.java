package dev.zkspring.leader;

import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;

import dev.zkspring.client.OwnedPaths;

/**
 * This instance's place in the leader election of its group, on the application's one
 * {@link CuratorFramework}. It acts as leader only after ZooKeeper confirms its latch node (see the
 * package documentation for the epoch), stops acting at once when the connection is suspended or the
 * session lost, and on shutdown drains running jobs before it releases leadership, so a successor takes
 * over within milliseconds.
 */
public class ZkLeaderElection implements SmartLifecycle, ApplicationEventPublisherAware {

	/** Starts after the web server, so the default participant id knows its port, and stops before it. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

	private static final Log logger = LogFactory.getLog(ZkLeaderElection.class);

	private final CuratorFramework client;

	private final String latchPath;

	private final Supplier<String> participantIdSupplier;

	private final Duration drainTimeout;

	private final Duration takeoverDelay;

	private final LeadershipAnnouncer announcer = new LeadershipAnnouncer(this);

	private final AtomicLong vetoedFirings = new AtomicLong();

	private final Object monitor = new Object();

	private final ConnectionStateListener connectionListener = (client, state) -> connectionStateChanged(state);

	private final LeaderLatchListener latchListener = new LeaderLatchListener() {

		@Override
		public void isLeader() {
			inOrder(ZkLeaderElection.this::tryToLead);
		}

		@Override
		public void notLeader() {
			// while disconnected, the connection listener revokes for the same state change, with its reason
			if (ZkLeaderElection.this.client.getZookeeperClient().isConnected()) {
				revokeNow(LeadershipReason.NODE_LOST);
			}
		}

	};

	private volatile @Nullable Term term;

	/** Bumped by every revocation, so a confirmation that raced with one is not committed. */
	private long generation;

	private volatile boolean running;

	private volatile boolean connected;

	private volatile String participantId = "";

	private volatile @Nullable LatchSeat seat;

	/**
	 * Create an election; it joins when started.
	 * @param client the application's started client
	 * @param latchPath the group's latch node, {@code {zk.leader.root}/{zk.leader.group}}
	 * @param participantId this instance's id, asked for when the election starts
	 * @param drainTimeout how long a stopping leader waits for running work before it releases leadership
	 * @param takeoverDelay how long a new leader waits before acting when its predecessor did not hand
	 * over gracefully (it crashed, or lost its session), so the predecessor's last work can end first
	 */
	public ZkLeaderElection(CuratorFramework client, String latchPath, Supplier<String> participantId,
			Duration drainTimeout, Duration takeoverDelay) {
		this.client = client;
		this.latchPath = latchPath;
		this.participantIdSupplier = participantId;
		this.drainTimeout = drainTimeout;
		this.takeoverDelay = takeoverDelay;
	}

	/**
	 * The participant id used when {@code zk.leader.id} is not set: host name, server port (when the
	 * application has one) and process id, such as {@code app1.example.com:8080#4711}.
	 * @param environment where to find the port
	 * @return the id
	 */
	public static String defaultParticipantId(Environment environment) {
		String host;
		try {
			host = InetAddress.getLocalHost().getHostName();
		}
		catch (IOException ex) {
			host = "localhost";
		}
		String port = environment.getProperty("local.server.port", environment.getProperty("server.port", ""));
		return host + (port.isEmpty() ? "" : ":" + port) + "#" + ProcessHandle.current().pid();
	}

	@Override
	public void setApplicationEventPublisher(ApplicationEventPublisher publisher) {
		this.announcer.setPublisher(publisher);
	}

	/** Whether this instance leads now: confirmed in ZooKeeper and not revoked since. */
	public boolean isLeader() {
		return this.term != null;
	}

	/** The epoch of this instance's current leadership, a fencing token; 0 while it does not lead. */
	public long epoch() {
		Term current = this.term;
		return (current != null) ? current.epoch() : 0;
	}

	/** The participant id of the group's leader as ZooKeeper sees it now, asked of the ensemble. */
	public Optional<String> leaderId() {
		if (isLeader()) {
			// this instance's confirmed leadership answers without a round trip
			return Optional.of(participantId());
		}
		LatchSeat current = this.seat;
		try {
			return (current != null) ? current.leaderId() : Optional.empty();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not read the leader of " + this.latchPath, ex);
		}
	}

	/** The participant ids of the group in election order, the leader first, asked of the ensemble. */
	public List<String> participants() {
		LatchSeat current = this.seat;
		try {
			return (current != null) ? current.participants() : List.of();
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not read the participants of " + this.latchPath, ex);
		}
	}

	/** How many scheduled firings the leader gate vetoed because this instance did not lead, since startup. */
	public long getVetoedFirings() {
		return this.vetoedFirings.get();
	}

	void firingVetoed() {
		this.vetoedFirings.incrementAndGet();
	}

	/** This instance's participant id; empty until the election starts. */
	public String participantId() {
		return this.participantId;
	}

	/** The group's latch node. */
	public String latchPath() {
		return this.latchPath;
	}

	/** Register a listener; if this instance leads already, it is told so first, on the leadership thread. */
	public void addListener(LeadershipListener listener) {
		this.announcer.addListener(listener);
	}

	/** Stop telling a listener about leadership changes. */
	public void removeListener(LeadershipListener listener) {
		this.announcer.removeListener(listener);
	}

	@Override
	public void start() {
		OwnedPaths.ensureAtStartup(this.client, this.latchPath);
		synchronized (this.monitor) {
			if (this.running) {
				return;
			}
			this.participantId = this.participantIdSupplier.get();
			this.announcer.start();
			this.connected = this.client.getZookeeperClient().isConnected();
			this.client.getConnectionStateListenable().addListener(this.connectionListener);
			this.running = true;
		}
		inOrder(this::join);
		logger.info("Joined leader election at " + this.latchPath + " as " + this.participantId);
	}

	/** Standby and revoke at once, drain running work up to the drain timeout, then release the latch node. */
	@Override
	public void stop() {
		Term held;
		synchronized (this.monitor) {
			if (!this.running) {
				return;
			}
			this.running = false;
			held = this.term;
		}
		revokeNow(LeadershipReason.SHUTDOWN);
		try {
			Future<?> released = this.announcer.submit(() -> {
				boolean drained = drainListeners();
				LatchSeat seat = this.seat;
				if (held != null && drained && seat != null) {
					seat.markReleased(held.version());
				}
				leave();
			});
			if (released != null) {
				released.get(this.drainTimeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
			}
		}
		catch (Exception ex) {
			logger.warn("Leadership of " + this.latchPath + " was not released in time; closing the latch anyway", ex);
			leave();
		}
		finally {
			this.client.getConnectionStateListenable().removeListener(this.connectionListener);
			this.announcer.shutdown();
		}
		logger.info("Left leader election at " + this.latchPath);
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	private void connectionStateChanged(ConnectionState state) {
		switch (state) {
			case CONNECTED, RECONNECTED -> {
				this.connected = true;
				inOrder(this::tryToLead);
			}
			case LOST -> {
				this.connected = false;
				revokeNow(LeadershipReason.SESSION_LOST);
				// The latch re-joins on the next state change, handled on this same thread, and deletes a
				// node the server may still keep for the old session: hold it until running work has ended.
				drainListeners();
			}
			default -> {
				this.connected = false;
				revokeNow(LeadershipReason.CONNECTION_SUSPENDED);
			}
		}
	}

	/** Stop acting as leader on the calling thread; listeners hear of it on the leadership thread. */
	private void revokeNow(LeadershipReason reason) {
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

	/** On the leadership thread: confirm the latch's leadership in ZooKeeper and act on it. */
	private void tryToLead() {
		LatchSeat current = this.seat;
		long expectedGeneration;
		synchronized (this.monitor) {
			if (!this.running || !this.connected || this.term != null || current == null || !current.latchLeads()) {
				return;
			}
			expectedGeneration = this.generation;
		}
		LatchSeat.Claim claim;
		try {
			claim = current.claim();
		}
		catch (Exception ex) {
			logger.warn("Could not confirm leadership of " + this.latchPath + "; will retry on reconnection: " + ex);
			return;
		}
		if (claim == null) {
			logger.info("Latch node under " + this.latchPath + " is gone or belongs to an ended session; re-joining");
			drainListeners();
			leave();
			join();
			return;
		}
		if (claim.abruptPredecessor() != null && !awaitTakeoverDelay(claim.abruptPredecessor(), expectedGeneration)) {
			return;
		}
		Term granted = new Term(claim.path(), claim.epoch(), claim.version());
		synchronized (this.monitor) {
			if (!this.running || expectedGeneration != this.generation) {
				return;
			}
			this.term = granted;
		}
		watchNode(current, granted);
		if (this.term == granted) {
			this.announcer.announceGranted(granted);
		}
	}

	/** Wait out the takeover delay on the leadership thread; false when leadership was revoked meanwhile. */
	private boolean awaitTakeoverDelay(String predecessor, long expectedGeneration) {
		if (this.takeoverDelay.isZero() || this.takeoverDelay.isNegative()) {
			return true;
		}
		logger.info("Previous leader " + predecessor + " of " + this.latchPath + " did not hand over gracefully; "
				+ "waiting " + this.takeoverDelay + " (zk.leader.takeover-delay) before acting as leader");
		long deadline = System.nanoTime() + this.takeoverDelay.toNanos();
		while (System.nanoTime() < deadline) {
			synchronized (this.monitor) {
				if (!this.running || expectedGeneration != this.generation) {
					return false;
				}
			}
			LockSupport.parkNanos(Math.min(deadline - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(10)));
		}
		return true;
	}

	private void watchNode(LatchSeat current, Term granted) {
		Runnable onDeleted = () -> {
			if (this.term == granted) {
				revokeNow(LeadershipReason.NODE_LOST);
				inOrder(() -> {
					if (this.running && this.seat == current) {
						leave();
						join();
					}
				});
			}
		};
		try {
			if (!current.watchDeletion(granted.path(), onDeleted)) {
				onDeleted.run();
			}
		}
		catch (Exception ex) {
			logger.debug("Could not watch latch node " + granted.path(), ex);
		}
	}

	private void join() {
		if (!this.running) {
			return;
		}
		LatchSeat joined = new LatchSeat(this.client, this.latchPath, this.participantId, this.latchListener);
		this.seat = joined;
		try {
			joined.start();
		}
		catch (Exception ex) {
			logger.error("Could not join leader election at " + this.latchPath, ex);
		}
	}

	private void leave() {
		LatchSeat current = this.seat;
		this.seat = null;
		if (current != null) {
			current.close();
		}
	}

	private boolean drainListeners() {
		return this.announcer.drain(this.drainTimeout);
	}

	private void inOrder(Runnable task) {
		this.announcer.inOrder(task);
	}

	/** One leadership of this instance: the latch node that led, the epoch and data version written for it. */
	record Term(String path, long epoch, int version) {
	}

}
