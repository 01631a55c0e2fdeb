package dev.zkspring.crash;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;

import dev.zkspring.client.PeerWatch;
import dev.zkspring.crash.SessionCard.Card;

/**
 * Why it exists: without it, a crashed instance's leadership and locks wait for its session to expire
 * (the session timeout, 10–30 s in production). It listens on a TCP port and publishes a session card
 * (address, session id and password); it keeps a connection to each instance this one waits behind and,
 * when that connection closes and reconnects are refused for the reconnect bound, ends the dead session
 * so its latch and lock nodes go at once. Freezes, partitions, half-open connections and restarted
 * listeners are never taken for a death (see {@link PeerLink}).
 * <p>
 * Longer than most files here: it is the one place that ties the listener, the card, the links and the
 * latch followers to the lifecycle and to the session; each of those lives in a class of its own.
 * <p>
 * Over 300 lines for that reason: splitting the lifecycle from the session hand-over would spread one lock across files.
 */
public final class CrashDetector implements PeerWatch, SmartLifecycle {

	/**
	 * After the web server (whose port the default instance id names) and before the election
	 * ({@code DEFAULT_PHASE - 512}); stops after the election has handed over.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 768;

	private static final Log logger = LogFactory.getLog(CrashDetector.class);

	/** How long a link outlives its last watcher, so a key waited for again and again reuses it. */
	private static final long LINGER_MILLIS = 5_000;

	private final CuratorFramework client;

	private final CrashDetectionSettings settings;

	private final Supplier<String> instanceId;

	private final SessionCard cards;

	private final Listener listener = new Listener();

	private final Map<Long, PeerLink> links = new ConcurrentHashMap<>();

	private final List<QueueFollower> followers = new java.util.concurrent.CopyOnWriteArrayList<>();

	private final List<Standing> standing = new java.util.concurrent.CopyOnWriteArrayList<>();

	private final Deaths deaths;

	private final ConnectionStateListener connectionListener = this::connectionChanged;

	private volatile @Nullable ScheduledExecutorService executor;

	private volatile @Nullable InetSocketAddress published;

	private volatile long cardSession;

	private volatile @Nullable Runnable onStateChange;

	/**
	 * @param client the application's client: its session is the one published, and the one that ends others
	 * @param settings how to listen and judge
	 * @param instanceId this instance's id, named in the log line of a survivor
	 */
	public CrashDetector(CuratorFramework client, CrashDetectionSettings settings, Supplier<String> instanceId) {
		this.client = client;
		this.settings = settings;
		this.instanceId = instanceId;
		this.cards = new SessionCard(client, settings.root(), settings.restricted());
		this.deaths = new Deaths(client);
	}

	/** The address peers connect to, once started. */
	public @Nullable InetSocketAddress address() {
		return this.published;
	}

	/** How many peers this instance found dead (closed, then refused). */
	public long deathsDetected() {
		return this.deaths.detected.get();
	}

	/** How many dead peers' sessions this instance ended (the others had ended already). */
	public long sessionsEnded() {
		return this.deaths.ended.get();
	}

	/** Called (on the detector's threads) when what {@link #describe()} shows changes, e.g. to rewrite the fleet node. */
	public void onStateChange(Runnable callback) {
		this.onStateChange = callback;
	}

	/**
	 * The detector's state for the fleet view: {@code state} (LISTENING or STOPPED), {@code address},
	 * {@code inbound} (peers watching this instance), {@code watching} (per peer session: {@code session},
	 * {@code instance}, {@code state}), {@code deathsDetected}, {@code sessionsEnded}.
	 */
	public Map<String, Object> describe() {
		Map<String, Object> state = new LinkedHashMap<>();
		InetSocketAddress address = this.published;
		state.put("state", this.listener.isRunning() ? "LISTENING" : "STOPPED");
		if (address != null) {
			state.put("address", address.getHostString() + ":" + address.getPort());
		}
		state.put("inbound", this.listener.connections());
		List<Map<String, Object>> watching = new ArrayList<>();
		for (PeerLink link : this.links.values()) {
			Map<String, Object> peer = new LinkedHashMap<>();
			peer.put("session", "0x" + Long.toHexString(link.session()));
			Card card = link.card();
			if (card != null) {
				peer.put("instance", card.instance());
			}
			peer.put("state", link.state().name());
			watching.add(peer);
		}
		state.put("watching", watching);
		state.put("deathsDetected", this.deaths.detected.get());
		state.put("sessionsEnded", this.deaths.ended.get());
		return state;
	}

	@Override
	public Watching watch(String node, long session) {
		ScheduledExecutorService running = this.executor;
		if (running == null || session == 0 || session == this.cardSession) {
			return Watching.NONE;
		}
		PeerLink link;
		synchronized (this.links) {
			link = this.links.computeIfAbsent(session, (id) -> {
				PeerLink created = new PeerLink(id, new LinkHost());
				created.start();
				return created;
			});
			link.add(node);
		}
		changed();
		return new Watching() {

			private boolean closed;

			@Override
			public synchronized void close() {
				if (this.closed) {
					return;
				}
				this.closed = true;
				synchronized (CrashDetector.this.links) {
					if (!link.remove(node)) {
						return;
					}
				}
				// kept a while: a busy key waits behind the same holder again and again
				ScheduledExecutorService current = CrashDetector.this.executor;
				try {
					if (current != null) {
						current.schedule(() -> closeIfIdle(session, link), LINGER_MILLIS, TimeUnit.MILLISECONDS);
						return;
					}
				}
				catch (java.util.concurrent.RejectedExecutionException ex) {
					// stopping: closed below
				}
				closeIfIdle(session, link);
			}

		};
	}

	private void closeIfIdle(long session, PeerLink link) {
		synchronized (this.links) {
			if (link.nodes().isEmpty() && this.links.remove(session, link)) {
				link.close();
			}
		}
		changed();
	}

	/**
	 * Watch, for as long as the handle is open, the owner of the node right ahead of ours in a line of
	 * sequential nodes, such as a leader latch's; may be called before the start.
	 * @param parent the line's parent node
	 * @param ourNode our node's path, {@code null} while we have none
	 * @return the handle that stops following
	 */
	public Watching follow(String parent, Supplier<@Nullable String> ourNode) {
		Standing standing = new Standing(parent, ourNode);
		this.standing.add(standing);
		ScheduledExecutorService running = this.executor;
		if (running != null) {
			startFollowing(standing, running);
		}
		return () -> {
			this.standing.remove(standing);
			QueueFollower follower = standing.follower;
			if (follower != null) {
				this.followers.remove(follower);
				follower.close();
			}
		};
	}

	private void startFollowing(Standing standing, ScheduledExecutorService running) {
		QueueFollower follower = new QueueFollower(this.client, this, running, standing.parent, standing.ourNode);
		standing.follower = follower;
		this.followers.add(follower);
		follower.refreshSoon();
	}

	/** A line to follow while started (registered before or after the start). */
	private static final class Standing {

		private final String parent;

		private final Supplier<@Nullable String> ourNode;

		private volatile @Nullable QueueFollower follower;

		Standing(String parent, Supplier<@Nullable String> ourNode) {
			this.parent = parent;
			this.ourNode = ourNode;
		}

	}

	@Override
	public synchronized void start() {
		if (this.executor != null) {
			return;
		}
		InetSocketAddress bind = (this.settings.address() != null)
				? new InetSocketAddress(this.settings.address(), this.settings.port())
				: new InetSocketAddress(this.settings.port());
		InetSocketAddress bound;
		try {
			bound = this.listener.start(bind);
		}
		catch (java.io.IOException ex) {
			throw new IllegalStateException("Crash detection cannot listen on " + bind + " (zk.crash-detection.address"
					+ " and zk.crash-detection.port): " + ex.getMessage() + ". Choose a free port, 0 for any, or set"
					+ " zk.crash-detection.enabled=false.", ex);
		}
		String host = (this.settings.address() != null && !bound.getAddress().isAnyLocalAddress())
				? bound.getAddress().getHostAddress() : LocalAddress.towardZooKeeper(this.client);
		this.published = InetSocketAddress.createUnresolved(host, bound.getPort());
		this.executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "zk-crash-detector");
			thread.setDaemon(true);
			return thread;
		});
		this.client.getConnectionStateListenable().addListener(this.connectionListener);
		this.executor.execute(this::writeCard);
		for (Standing line : this.standing) {
			startFollowing(line, this.executor);
		}
		logger.debug("Crash detection listening on " + host + ":" + bound.getPort());
	}

	@Override
	public synchronized void stop() {
		ScheduledExecutorService running = this.executor;
		if (running == null) {
			return;
		}
		this.client.getConnectionStateListenable().removeListener(this.connectionListener);
		// the card first: a watcher that then finds the listener closed sees no card and does nothing
		long session = this.cardSession;
		this.cardSession = 0;
		if (session != 0 && !this.client.getZookeeperClient().isConnected()) {
			// ZooKeeper out of reach: a delete would wait out the client's retries and hold up the stop; the card
			// goes with the session, and a watcher that takes this stopped instance for dead ends nothing it needs
			logger.debug("ZooKeeper is out of reach: the crash detection card of session 0x" + Long.toHexString(session)
					+ " goes with its session");
		}
		else if (session != 0) {
			try {
				this.cards.delete(session);
			}
			catch (Exception ex) {
				logger.debug("Could not delete the crash detection card of session 0x" + Long.toHexString(session), ex);
			}
		}
		this.listener.stop();
		this.followers.forEach(QueueFollower::close);
		this.followers.clear();
		running.shutdownNow();
		this.executor = null;
		synchronized (this.links) {
			this.links.values().forEach(PeerLink::close);
			this.links.clear();
		}
	}

	/**
	 * Close the listen socket and every watcher's connection, and listen again on the same port at once, as
	 * a listener that restarts would: a test seam, since the watchers must not take this for a death.
	 */
	void restartListener() throws java.io.IOException {
		InetSocketAddress address = this.published;
		if (address == null) {
			throw new IllegalStateException("not started");
		}
		this.listener.stop();
		this.listener.start((this.settings.address() != null)
				? new InetSocketAddress(this.settings.address(), address.getPort()) : new InetSocketAddress(address.getPort()));
	}

	@Override
	public boolean isRunning() {
		return this.executor != null;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	private void connectionChanged(CuratorFramework curator, ConnectionState state) {
		if (state.isConnected()) {
			ScheduledExecutorService running = this.executor;
			if (running != null) {
				running.execute(this::writeCard);
				this.followers.forEach(QueueFollower::refreshSoon);
			}
		}
	}

	/** Write the card of the current session unless written already; retried while connected. */
	private void writeCard() {
		InetSocketAddress address = this.published;
		ScheduledExecutorService running = this.executor;
		if (address == null || running == null || !this.client.getZookeeperClient().isConnected()) {
			return;
		}
		try {
			long current = this.client.getZookeeperClient().getZooKeeper().getSessionId();
			if (current != this.cardSession) {
				this.cardSession = this.cards.write(this.instanceId.get(), address);
				changed();
			}
		}
		catch (Exception ex) {
			logger.debug("Could not write the crash detection card; retrying", ex);
			running.schedule(this::writeCard, 1, TimeUnit.SECONDS);
		}
	}

	private void changed() {
		Runnable callback = this.onStateChange;
		if (callback != null) {
			try {
				callback.run();
			}
			catch (RuntimeException ex) {
				logger.debug("Crash detection state listener failed", ex);
			}
		}
	}

	private final class LinkHost implements PeerLink.Host {

		@Override
		public @Nullable Card card(long session, @Nullable Runnable whenCreated) throws Exception {
			return CrashDetector.this.cards.read(session,
					(whenCreated != null) ? (event) -> whenCreated.run() : null);
		}

		@Override
		public void died(PeerLink link, Card card, long closedAtNanos) {
			CrashDetector.this.deaths.act(card, link.nodes(), closedAtNanos);
			synchronized (CrashDetector.this.links) {
				CrashDetector.this.links.remove(link.session(), link);
			}
			changed();
		}

		@Override
		public int connectTimeoutMs() {
			return 2_000;
		}

		@Override
		public long reconnectTimeoutNanos() {
			return CrashDetector.this.settings.reconnectTimeout().toNanos();
		}

	}

}
