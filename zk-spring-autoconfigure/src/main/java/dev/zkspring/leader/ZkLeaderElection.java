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
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.jspecify.annotations.Nullable;
import org.quartz.JobExecutionContext;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;

import dev.zkspring.client.OwnedPaths;
import dev.zkspring.client.SessionLease;

/**
 * This instance's place in the leader election of its group, on the application's one
 * {@link CuratorFramework}. It acts as leader only after ZooKeeper confirms its latch node (see the
 * package documentation for the epoch), and only while the client's {@link SessionLease} is valid for
 * the session that confirmed it: a process resuming from a freeze leads nothing before it has heard from
 * ZooKeeper again. It stops acting at once when the lease lapses, the connection is suspended or the
 * session lost, and on shutdown drains running jobs and {@link LeaderOnly} calls before it releases
 * leadership, so a successor takes over within milliseconds.
 */
public class ZkLeaderElection implements SmartLifecycle, ApplicationEventPublisherAware {

	/** Starts after the web server, so the default participant id knows its port, and stops before it. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

	private static final Log logger = LogFactory.getLog(ZkLeaderElection.class);

	private final CuratorFramework client;

	private volatile @Nullable SessionLease lease;

	private final boolean ownsLease;

	private final String latchPath;

	private final Supplier<String> participantIdSupplier;

	private final Duration drainTimeout;

	private final Duration takeoverDelay;

	private final LeadershipAnnouncer announcer = new LeadershipAnnouncer(this);

	private final AtomicLong vetoedFirings = new AtomicLong();

	private final LeaderOnlyCalls calls = new LeaderOnlyCalls(this);

	private final FireTimes fireTimes;

	private final GroupReader groupReader;

	private final InFlightJobs inFlight;

	private final SessionLease.Listener leaseListener = new SessionLease.Listener() {

		@Override
		public void lapsed() {
			// on the lease's thread: mark state only; listeners hear of it on the leadership thread
			revokeNow(LeadershipReason.SESSION_IN_DOUBT);
		}

		@Override
		public void granted() {
			inOrder(ZkLeaderElection.this::tryToLead);
		}

	};

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

	/** Leadership thread only: a takeover delay started for an abrupt predecessor and not yet served. */
	private long takeoverNotBefore;

	private boolean takeoverPending;

	/** Leadership thread only: the latch node's data version this election last wrote, -1 for none. */
	private int lastClaimVersion = -1;

	private volatile String participantId = "";

	private volatile @Nullable LatchSeat seat;

	/**
	 * Create an election on the application's session lease; it joins when started.
	 * @param client the application's started client
	 * @param lease the client's session lease, asked before every grant, firing and leader-only call
	 * @param latchPath the group's latch node, {@code {zk.leader.root}/{zk.leader.group}}
	 * @param participantId this instance's id, asked for when the election starts
	 * @param drainTimeout how long a stopping leader waits for running work before it releases leadership
	 * @param takeoverDelay how long a new leader waits before acting when its predecessor did not hand
	 * over gracefully, for the predecessor's in-flight work; zero (the default) acts at once
	 */
	public ZkLeaderElection(CuratorFramework client, SessionLease lease, String latchPath,
			Supplier<String> participantId, Duration drainTimeout, Duration takeoverDelay) {
		this(client, lease, false, latchPath, participantId, drainTimeout, takeoverDelay);
	}

	/**
	 * Create an election with a session lease of its own, started and closed with the election; prefer
	 * the constructor taking the application's one lease.
	 * @param client the application's started client
	 * @param latchPath the group's latch node
	 * @param participantId this instance's id, asked for when the election starts
	 * @param drainTimeout how long a stopping leader waits for running work before it releases leadership
	 * @param takeoverDelay how long a new leader waits before acting after an abrupt predecessor
	 */
	public ZkLeaderElection(CuratorFramework client, String latchPath, Supplier<String> participantId,
			Duration drainTimeout, Duration takeoverDelay) {
		this(client, null, true, latchPath, participantId, drainTimeout, takeoverDelay);
	}

	private ZkLeaderElection(CuratorFramework client, @Nullable SessionLease lease, boolean ownsLease,
			String latchPath, Supplier<String> participantId, Duration drainTimeout, Duration takeoverDelay) {
		this.client = client;
		this.lease = lease;
		this.ownsLease = ownsLease;
		this.latchPath = latchPath;
		this.participantIdSupplier = participantId;
		this.drainTimeout = drainTimeout;
		this.takeoverDelay = takeoverDelay;
		this.fireTimes = new FireTimes(client, latchPath);
		this.groupReader = new GroupReader(client, latchPath);
		this.inFlight = new InFlightJobs(client, latchPath);
		this.announcer.addListener(this.calls);
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

	/**
	 * Whether this instance leads now: confirmed in ZooKeeper, not revoked since, and the session that
	 * confirmed it is certainly alive now (the session lease, no round trip).
	 */
	public boolean isLeader() {
		return epoch() != 0;
	}

	/**
	 * The epoch of this instance's current leadership, a fencing token; 0 while it does not lead, or
	 * while its session lease is not valid.
	 */
	public long epoch() {
		Term current = this.term;
		SessionLease currentLease = this.lease;
		if (current == null || currentLease == null || !currentLease.isValidFor(current.session())) {
			return 0;
		}
		return current.epoch();
	}

	/**
	 * Whether this instance still leads under the given epoch, the check for leader-only code about to
	 * write to a resource: false once that leadership ended, even if a later one began.
	 * @param epoch the epoch the work started under
	 * @return whether it still leads under that epoch now
	 */
	public boolean isLeading(long epoch) {
		return epoch != 0 && epoch() == epoch;
	}

	/**
	 * Fail unless this instance still leads under the given epoch.
	 * @param epoch the epoch the work started under
	 * @throws LeadershipLostException when that leadership has ended or is in doubt
	 */
	public void assertLeading(long epoch) {
		if (!isLeading(epoch)) {
			throw new LeadershipLostException(this.latchPath, epoch);
		}
	}

	/**
	 * The participant id of the group's leader, asked of the ensemble; while the client is not connected
	 * (or the read takes longer than a second) the last known leader, at once. See {@link #group()} to
	 * tell the two apart.
	 */
	public Optional<String> leaderId() {
		if (isLeader()) {
			// this instance's confirmed leadership answers without a round trip
			return Optional.of(participantId());
		}
		return group().leaderId();
	}

	/**
	 * The participant ids of the group in election order, the leader first, asked of the ensemble; the
	 * last known ones while the client is not connected. See {@link #group()} to tell the two apart.
	 */
	public List<String> participants() {
		return group().participants();
	}

	/**
	 * The group as read from the ensemble now, or, while the client is not connected or the read takes
	 * longer than a second, the last known group marked as not current; never waits on the retry policy.
	 */
	public ElectionGroup group() {
		ElectionGroup group = this.groupReader.read(this.seat);
		if (isLeader() && !participantId().equals(group.leader())) {
			// confirmed leadership on a valid lease is known without the ensemble
			return new ElectionGroup(participantId(), group.participants(), group.asOf(), group.current());
		}
		return group;
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
			if (this.ownsLease) {
				this.lease = SessionLease.start(this.client);
			}
			this.announcer.start();
			// listen before anything is read, so no state change can fall between a read and the listener
			this.client.getConnectionStateListenable().addListener(this.connectionListener);
			leaseNow().addListener(this.leaseListener);
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
			leaseNow().removeListener(this.leaseListener);
			if (this.ownsLease) {
				leaseNow().close();
			}
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
		// on Curator's connection-state thread, shared by every component: mark state, never wait here
		switch (state) {
			case CONNECTED, RECONNECTED -> inOrder(this::tryToLead);
			case LOST -> {
				revokeNow(LeadershipReason.SESSION_LOST);
				// on the leadership thread, before any re-claim queued behind it: the old term's work ends first
				inOrder(this::drainListeners);
			}
			default -> revokeNow(LeadershipReason.CONNECTION_SUSPENDED);
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
			if (!this.running || this.term != null || current == null || !current.latchLeads()) {
				return;
			}
			expectedGeneration = this.generation;
		}
		SessionLease currentLease = leaseNow();
		SessionLease.Stamp stamp = currentLease.beforeRequest();
		LatchSeat.Claim claim;
		try {
			claim = current.claim(this.lastClaimVersion);
			currentLease.replied(stamp);
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
		this.lastClaimVersion = claim.version();
		if (claim.abruptPredecessor() != null) {
			// a write by another instance since this one's last claim; held across this instance's own
			// re-claims (which find their own write) until served in full
			long notBefore = System.nanoTime() + this.takeoverDelay.toNanos();
			if (!this.takeoverPending || notBefore - this.takeoverNotBefore > 0) {
				this.takeoverNotBefore = notBefore;
			}
			this.takeoverPending = true;
			logger.info("Previous leader " + claim.abruptPredecessor() + " of " + this.latchPath
					+ " did not hand over gracefully");
		}
		if (this.takeoverPending && !awaitTakeoverDelay(expectedGeneration)) {
			return;
		}
		Term granted = new Term(claim.path(), claim.epoch(), claim.version(), stamp.session());
		synchronized (this.monitor) {
			// the grant, too, asks the lease: the claim's reply must still be within the session's lease
			if (!this.running || expectedGeneration != this.generation || !currentLease.isValidFor(stamp.session())) {
				return;
			}
			this.term = granted;
			this.takeoverPending = false;
		}
		watchNode(current, granted);
		if (this.term == granted) {
			this.announcer.announceGranted(granted);
		}
	}

	/** Wait out the takeover delay on the leadership thread; false when leadership was revoked meanwhile. */
	private boolean awaitTakeoverDelay(long expectedGeneration) {
		long deadline = this.takeoverNotBefore;
		if (deadline - System.nanoTime() <= 0) {
			return true;
		}
		logger.info("Waiting " + Duration.ofNanos(deadline - System.nanoTime()) + " (zk.leader.takeover-delay) before "
				+ "acting as leader of " + this.latchPath);
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

	private SessionLease leaseNow() {
		SessionLease current = this.lease;
		if (current == null) {
			throw new IllegalStateException("Leader election at " + this.latchPath + " has no session lease yet");
		}
		return current;
	}

	/** A {@link LeaderOnly} call may start: counted until {@link #callEnded()}, drained before a release. */
	boolean callStarting() {
		return this.calls.enter();
	}

	void callEnded() {
		this.calls.exit();
	}

	/**
	 * For the Quartz gate, just before a firing starts: the epoch it runs under, after recording its fire
	 * time (and, for a job that requests recovery, the execution) in ZooKeeper fenced by this leadership;
	 * 0 when this instance does not lead or the record failed.
	 */
	long startFiring(String trigger, long scheduledFireTimeMillis, @Nullable JobExecutionContext context) {
		Term current = this.term;
		long epoch = epoch();
		if (current == null || epoch != current.epoch()) {
			return 0;
		}
		List<CuratorOp> alsoCommit;
		try {
			alsoCommit = (context != null) ? this.inFlight.starting(epoch, context) : List.of();
		}
		catch (Exception ex) {
			logger.warn("Could not prepare the in-flight record of " + trigger + "; the firing does not start: " + ex);
			return 0;
		}
		if (!this.fireTimes.record(current, leaseNow(), trigger, scheduledFireTimeMillis, alsoCommit)) {
			return 0;
		}
		return (epoch() == epoch) ? epoch : 0;
	}

	/**
	 * Commit the operations only while this instance leads, in one transaction with its leadership's
	 * fence; false when it does not lead or the fence was lost (a successor has claimed since).
	 * @throws Exception when an operation failed, or ZooKeeper could not be asked
	 */
	boolean commitFenced(List<CuratorOp> operations) throws Exception {
		Term current = this.term;
		if (current == null || epoch() != current.epoch()) {
			return false;
		}
		return this.fireTimes.commit(current, leaseNow(), operations);
	}

	/** The application's client, for the records kept beside the latch node. */
	CuratorFramework client() {
		return this.client;
	}

	/** The executions of jobs requesting recovery, recorded while they run. */
	InFlightJobs inFlightJobs() {
		return this.inFlight;
	}

	/** The last fire time any leader of this group started for a trigger, read from ZooKeeper. */
	java.util.OptionalLong lastFireTime(String trigger) throws Exception {
		return this.fireTimes.last(trigger);
	}

	/**
	 * One leadership of this instance: the latch node that led, the epoch and data version written for
	 * it, and the lease session that confirmed it.
	 */
	record Term(String path, long epoch, int version, long session) {
	}

}
