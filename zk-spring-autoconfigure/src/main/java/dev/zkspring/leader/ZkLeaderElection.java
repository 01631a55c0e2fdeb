package dev.zkspring.leader;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.Environment;

import dev.zkspring.client.InstanceId;
import dev.zkspring.client.OwnedPaths;
import dev.zkspring.client.SessionLease;
import dev.zkspring.leader.term.ElectionAccess;
import dev.zkspring.leader.term.LeaderRecords;
import dev.zkspring.leader.term.Term;

/**
 * This instance's place in the leader election of its group, on the application's one
 * {@link CuratorFramework}. It acts as leader only after ZooKeeper confirms its latch node (see the
 * package documentation for the epoch), and only while the client's {@link SessionLease} is valid for
 * the session that confirmed it: a process resuming from a freeze leads nothing before it has heard from
 * ZooKeeper again. It stops acting at once when the lease lapses, the connection is suspended or the
 * session lost, and on shutdown drains running jobs and {@link LeaderOnly} calls before it releases
 * leadership, so a successor takes over within milliseconds.
 * <p>
 * Over 300 lines because it is the election's whole public face (state, epochs, participants, lifecycle,
 * listeners, the hooks the gate, crash detection and the {@code @LeaderOnly} instrumentation use); the work
 * is in LeadershipCycle, LatchSeat and the sub-packages.
 */
public class ZkLeaderElection implements SmartLifecycle, ApplicationEventPublisherAware {

	/** Starts after the web server, so the default participant id knows its port, and stops before it. */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 512;

	private static final Log logger = LogFactory.getLog(ZkLeaderElection.class);

	static {
		// the entry points in dev.zkspring.jobs hand the parts these two, which stay off the public API
		ElectionAccess.install(ZkLeaderElection.class, ZkLeaderElection::records, ZkLeaderElection::stepBack);
	}

	private final CuratorFramework client;

	private volatile @Nullable SessionLease lease;

	private final boolean ownsLease;

	private final String latchPath;

	private final Supplier<String> participantIdSupplier;

	private final LeadershipAnnouncer announcer = new LeadershipAnnouncer(this);

	private final LeaderOnlyCalls calls = new LeaderOnlyCalls(this);

	private final GroupReader groupReader;

	private volatile String participantId = "";

	private volatile LeaderOnlyInstrumentation leaderOnlyInstrumentation = LeaderOnlyInstrumentation.NONE;

	private final LeadershipCycle cycle;

	private final LeaderRecords records;

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
		this.groupReader = new GroupReader(client, latchPath);
		this.cycle = new LeadershipCycle(this, client, this.announcer, drainTimeout, takeoverDelay);
		this.records = new LeaderRecords(client, latchPath, this::term, this::epoch, this::leaseNow);
		this.announcer.addListener(this.calls);
	}

	/**
	 * The participant id used when {@code zk.leader.id} is not set: host name, {@code server.port} (when
	 * set and not 0) and process id, such as {@code app1.example.com:8080#4711}; the rule of
	 * {@link InstanceId}, so the fleet view, canary sets and the election name an instance alike.
	 * @param environment where to find the port
	 * @return the id
	 */
	public static String defaultParticipantId(Environment environment) {
		return InstanceId.generated(environment);
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
		Term current = this.cycle.term();
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
		ElectionGroup group = this.groupReader.read(this.cycle.seat());
		if (isLeader() && !participantId().equals(group.leader())) {
			// confirmed leadership on a valid lease is known without the ensemble
			return new ElectionGroup(participantId(), group.participants(), group.asOf(), group.current());
		}
		return group;
	}

	/** How many scheduled firings the leader gate vetoed because this instance did not lead, since startup. */
	public long getVetoedFirings() {
		return this.records.vetoedFirings();
	}

	/** This instance's participant id; empty until the election starts. */
	public String participantId() {
		return this.participantId;
	}

	/** The group's latch node. */
	public String latchPath() {
		return this.latchPath;
	}

	/**
	 * This instance's own node in the latch's line, {@code null} while it has none; for the crash detector,
	 * whose next in line watches the instance ahead of it.
	 */
	public @Nullable String latchNode() {
		LatchSeat seat = this.cycle.seat();
		return (seat != null) ? seat.ourPath() : null;
	}

	/** Instrument every {@code @LeaderOnly} call of this election from now on (Micrometer Observations). */
	public void setLeaderOnlyInstrumentation(LeaderOnlyInstrumentation instrumentation) {
		this.leaderOnlyInstrumentation = instrumentation;
	}

	LeaderOnlyInstrumentation leaderOnlyInstrumentation() {
		return this.leaderOnlyInstrumentation;
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
		boolean started = this.cycle.start(() -> {
			this.participantId = this.participantIdSupplier.get();
			if (this.ownsLease) {
				this.lease = SessionLease.start(this.client);
			}
		});
		if (started) {
			logger.info("Joined leader election at " + this.latchPath + " as " + this.participantId);
		}
	}

	/** Standby and revoke at once, drain running work up to the drain timeout, then release the latch node. */
	@Override
	public void stop() {
		if (!this.cycle.stop()) {
			return;
		}
		if (this.ownsLease) {
			leaseNow().close();
		}
		this.announcer.shutdown();
		logger.info("Left leader election at " + this.latchPath);
	}

	@Override
	public boolean isRunning() {
		return this.cycle.isRunning();
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/** The session lease every grant, firing and leader-only call asks. */
	SessionLease leaseNow() {
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

	/** Tests only: run a task on the leadership thread, after what is queued there. */
	void inOrder(Runnable task) {
		this.announcer.inOrder(task);
	}

	/** Hand leadership over gracefully and stay in the election; false when not leading or already doing so. */
	boolean stepBack() {
		return this.cycle.stepBack();
	}

	/** The term granted now, whether or not its lease is valid now; {@code null} while none. */
	@Nullable Term term() {
		return this.cycle.term();
	}

	/** The records this leader keeps in ZooKeeper, each write fenced by its leadership. */
	LeaderRecords records() {
		return this.records;
	}

}
