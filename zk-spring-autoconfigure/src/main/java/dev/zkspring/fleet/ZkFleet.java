package dev.zkspring.fleet;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.Ordered;
import org.springframework.core.PriorityOrdered;
import org.springframework.core.env.ConfigurableEnvironment;

import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.config.ZkConfigStatus;
import dev.zkspring.leader.LeadershipGrantedEvent;
import dev.zkspring.leader.LeadershipListener;
import dev.zkspring.leader.LeadershipRevokedEvent;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkHeldLock;
import dev.zkspring.lock.ZkLock;
import dev.zkspring.lock.ZkLockObserver;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.refresh.ZkRefreshedEvent;

/**
 * The fleet view, so an operator can tell whether a configuration change reached every instance or
 * was refused somewhere, who leads and who holds which keys. This instance publishes its own state in
 * an ephemeral node {@code {root}/{instance id}} on the application's session, rewritten when that
 * state changes (never on a timer; after lock calls at most every 250 ms, so the writes do not queue
 * ahead of the locks' own requests), re-created under a new session, deleted on stop;
 * {@link #instances()} reads every live instance's node. Nodes name znodes, versions and keys, never
 * configuration values.
 * <p>
 * Over 300 lines because the node's content is described in one method beside the listeners that ask for it to be written.
 */
public final class ZkFleet implements SmartLifecycle, ApplicationListener<ApplicationEvent>, PriorityOrdered, ZkLockObserver,
		LeadershipListener, ConnectionStateListener {

	private final CuratorFramework client;

	private final String root;

	private final Supplier<String> instanceId;

	private final ConfigState config;

	private final List<ZkLockTemplate> lockTemplates;

	private final List<ZkLeaderElection> elections;

	private final @Nullable ZkConfigStatus configStatus;

	/** The host this instance runs on, for operators who must find it. */
	private static final String HOST = hostName();

	private final Clock clock = Clock.systemUTC();

	private final Recent recent = new Recent(64, Duration.ofMinutes(10).toMillis());

	private final Map<ZkLeaderElection, Long> leadingSince = new ConcurrentHashMap<>();

	private final JsonMapper json = JsonMapper.builder().build();

	private final Publisher publisher;

	private volatile @Nullable String id;

	private final FleetReader reader;

	private volatile @Nullable Supplier<Map<String, Object>> crashDetection;

	private volatile @Nullable Supplier<List<Map<String, Object>>> jobs;

	/** The jobs as last shown or written, so that asking again rewrites the node only when they changed. */
	private volatile List<Map<String, Object>> jobsShown = List.of();

	/**
	 * Create the fleet view of one application.
	 * @param client the application's client; the node lives on its session
	 * @param root the application's fleet path, such as {@code /fleet/orders}
	 * @param instanceId this instance's id, asked once on start (the leader participant id when there is one)
	 * @param environment where the config center's context versions in force are
	 * @param lockTemplates the application's lock templates, for the keys it holds
	 * @param elections the application's leader elections
	 * @param configStatus where the configuration came from, {@code null} without the config center
	 */
	public ZkFleet(CuratorFramework client, String root, Supplier<String> instanceId, ConfigurableEnvironment environment,
			List<ZkLockTemplate> lockTemplates, List<ZkLeaderElection> elections, @Nullable ZkConfigStatus configStatus) {
		this.client = client;
		this.root = root;
		this.instanceId = instanceId;
		this.config = new ConfigState(environment);
		this.lockTemplates = List.copyOf(lockTemplates);
		this.elections = List.copyOf(elections);
		this.configStatus = configStatus;
		this.publisher = new Publisher(client, this::document);
		this.reader = new FleetReader(client, root, this.json);
		if (configStatus != null) {
			configStatus.onNodeChanged(this.publisher::request);
		}
		this.lockTemplates.forEach((template) -> template.addObserver(this));
		this.elections.forEach((election) -> election.addListener(this));
	}

	/**
	 * Show the crash detector's state in this instance's node (field {@code crashDetection}); call again
	 * when it changes, and the node is rewritten (at most every 250 ms).
	 * @param state the detector's state as it describes it
	 */
	public void showCrashDetection(Supplier<Map<String, Object>> state) {
		this.crashDetection = state;
		this.publisher.requestPaced();
	}

	/**
	 * Show the jobs of this instance's gated scheduler in its node (field {@code jobs}: per job its {@code name},
	 * its Quartz {@code group} unless {@code DEFAULT}, and when it has them its {@code leaderGroup} and {@code shards}),
	 * so that the operator's tool lists every job, one that never ran too; call again when they may have changed,
	 * and the node is rewritten when they did.
	 * @param jobs the jobs as the node shows them; asked on each write, so it must not call ZooKeeper
	 */
	public void showJobs(Supplier<List<Map<String, Object>>> jobs) {
		this.jobs = jobs;
		List<Map<String, Object>> now = jobs.get();
		if (!now.equals(this.jobsShown)) {
			this.jobsShown = now;
			this.publisher.request();
		}
	}

	/** This instance's id in the fleet, once started. */
	public @Nullable String instanceId() {
		return this.id;
	}

	/** The path of this application's fleet nodes. */
	public String root() {
		return this.root;
	}

	/**
	 * Every live instance of this application as its node describes it, sorted by id (the node's name):
	 * {@code id}, {@code host}, {@code leader}, {@code epoch}, {@code config} (per context znode: applied and latest
	 * version, {@code status} CURRENT, REFUSED with a {@code reason}, or PENDING; while a canary runs,
	 * {@code canary}: its node, {@code revision}, {@code member}, {@code runsCandidate} and, for a member,
	 * the candidate's {@code status} and {@code reason}; {@code digest}: that of the candidate it runs), {@code locks}, {@code jobs} (see {@link #showJobs}),
	 * {@code recent}; a node that is not an instance's (not JSON, wrong fields, persistent, too large)
	 * has only {@code id} and {@code unreadable}, the reason. Asked of ZooKeeper while connected;
	 * otherwise (never blocking) the last list read, each entry marked {@code "stale": true}.
	 */
	public List<Map<String, Object>> instances() {
		return this.reader.instances(nodeName()).instances();
	}

	/**
	 * The fleet as the endpoint shows it: {@code instances} as {@link #instances()}, and {@code omitted},
	 * how many nodes were left out because the view reached its size bound.
	 */
	public Map<String, Object> view() {
		FleetReader.Listing listing = this.reader.instances(nodeName());
		Map<String, Object> view = new LinkedHashMap<>();
		view.put("instances", listing.instances());
		view.put("omitted", listing.omitted());
		return view;
	}

	private @Nullable String nodeName() {
		String id = this.id;
		return (id != null) ? id.replace('/', '_') : null;
	}

	@Override
	public void start() {
		String id = this.instanceId.get();
		this.id = id;
		this.client.getConnectionStateListenable().addListener(this);
		this.publisher.start(new FleetNode(this.client, this.root, ZKPaths.makePath(this.root, id.replace('/', '_'))));
	}

	@Override
	public void stop() {
		this.client.getConnectionStateListenable().removeListener(this);
		this.publisher.stop();
	}

	@Override
	public boolean isRunning() {
		return this.publisher.isRunning();
	}

	@Override
	public void onApplicationEvent(ApplicationEvent event) {
		if (event instanceof ZkConfigRejectedEvent rejected) {
			this.config.refused(rejected);
			this.publisher.request();
		}
		else if (event instanceof ZkConfigChangedEvent || event instanceof ZkRefreshedEvent) {
			this.publisher.request();
		}
	}

	@Override
	public boolean supportsAsyncExecution() {
		return false;
	}

	/** Before the application's listeners, so that one of theirs that throws cannot keep this from hearing of a change. */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	public void leadershipGranted(LeadershipGrantedEvent event) {
		this.leadingSince.put(event.getElection(), event.getTimestamp());
		this.publisher.request();
	}

	@Override
	public void leadershipRevoked(LeadershipRevokedEvent event) {
		Long since = this.leadingSince.remove(event.getElection());
		if (since != null) {
			this.recent.add("leader", "epoch " + event.getEpoch(), since, this.clock.millis());
		}
		this.publisher.request();
	}

	@Override
	public void acquired(String name, ZkLock.Mode mode, Duration waited) {
		this.publisher.requestPaced();
	}

	@Override
	public void releasedKey(String key, ZkLock.Mode mode, Instant start, Instant end) {
		// the key, as the node's list of held locks names it, not the @ZkLock expression
		this.recent.add("lock", key, start.toEpochMilli(), end.toEpochMilli());
		this.publisher.requestPaced();
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState state) {
		if (state.isConnected()) {
			// a new session has no node yet, and what changed while away was not written
			this.publisher.request();
		}
	}

	private static String hostName() {
		try {
			return java.net.InetAddress.getLocalHost().getHostName();
		}
		catch (java.io.IOException ex) {
			return "unknown";
		}
	}

	/** This instance's node document; runs on the publisher's thread while connected. */
	private Publisher.Document document() throws Exception {
		Map<String, Object> node = new LinkedHashMap<>();
		node.put("id", this.id);
		node.put("host", HOST);
		ZkLeaderElection first = this.elections.isEmpty() ? null : this.elections.get(0);
		node.put("leader", first != null && first.isLeader());
		if (first != null) {
			node.put("epoch", first.epoch());
		}
		List<Map<String, Object>> leadership = new ArrayList<>();
		for (ZkLeaderElection election : this.elections) {
			Map<String, Object> group = new LinkedHashMap<>();
			group.put("group", election.latchPath());
			group.put("leader", election.isLeader());
			group.put("epoch", election.epoch());
			Long since = this.leadingSince.get(election);
			if (since != null && election.isLeader()) {
				group.put("since", since);
			}
			leadership.add(group);
		}
		node.put("leadership", leadership);
		if (this.configStatus != null) {
			node.put("configSource", this.configStatus.getSource().name());
		}
		// no watch of ours on nodes the config center watches: on a server before 3.9 it would replace its watch
		boolean watched = this.configStatus != null && this.configStatus.isWatched();
		List<Map<String, Object>> config = this.config.describe(this.client, watched ? null : this.publisher,
				String.valueOf(this.id));
		node.put("config", config);
		List<Map<String, Object>> locks = new ArrayList<>();
		for (ZkLockTemplate template : this.lockTemplates) {
			for (ZkHeldLock held : template.getHeldLocks()) {
				Map<String, Object> lock = new LinkedHashMap<>();
				lock.put("key", held.key());
				lock.put("mode", held.mode().name());
				lock.put("since", held.since().toEpochMilli());
				if (held.fencingToken() != null) {
					lock.put("token", held.fencingToken());
				}
				locks.add(lock);
			}
		}
		node.put("locks", locks);
		Supplier<Map<String, Object>> crash = this.crashDetection;
		if (crash != null) {
			node.put("crashDetection", crash.get());
		}
		Supplier<List<Map<String, Object>>> jobs = this.jobs;
		if (jobs != null) {
			List<Map<String, Object>> shown = jobs.get();
			this.jobsShown = shown;
			node.put("jobs", shown);
		}
		long now = this.clock.millis();
		node.put("recent", this.recent.describe(now));
		node.put("updated", now);
		boolean settled = ConfigState.settled(config)
				&& (this.configStatus == null || !this.configStatus.isDegraded());
		return new Publisher.Document(FleetLimits.fit(node, this.json), settled);
	}

}
