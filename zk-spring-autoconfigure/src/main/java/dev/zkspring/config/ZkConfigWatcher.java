package dev.zkspring.config;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.WatchedEvent;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;

import dev.zkspring.client.ZkStartupException;

/**
 * Keeps the config center's property source current. A persistent watch on each context and canary
 * node ({@link ContextWatches}, with {@code zk.config.watch}) and every reconnection request a reload; reloads run on one
 * refresher thread, at most one queued behind the running one, so a burst of changes is coalesced
 * and events never interleave. Nothing is applied before the context is refreshed; the first
 * reload after it catches whatever changed since the initial load. A {@link ZkConfigApplier} bean, when
 * there is one, validates each change before the swap and may refuse it.
 */
final class ZkConfigWatcher implements ApplicationListener<ContextRefreshedEvent>, ConnectionStateListener,
		AutoCloseable {

	private static final Log logger = LogFactory.getLog(ZkConfigInitializer.class);

	private final ConfigurableApplicationContext context;

	private final CuratorFramework client;

	private final LocatorChain locators;

	private final ConfigContexts contexts;

	private final ConfigSnapshotStore snapshots;

	private final ZkConfigStatus status;

	private final boolean watch;

	private final ExecutorService refresher = Executors.newSingleThreadExecutor((task) -> {
		Thread thread = new Thread(task, "zk-config-refresher");
		thread.setDaemon(true);
		return thread;
	});

	private final AtomicBoolean pending = new AtomicBoolean();

	private volatile boolean ready;

	private volatile boolean closed;

	private volatile List<PropertySource<?>> current;

	private final RefusedDocuments refusedDocuments = new RefusedDocuments();

	private final ZkLogLevels logLevels;

	private @Nullable List<Object> refusedAsAWhole;

	/** The persistent watches on our nodes; {@code null} without {@code zk.config.watch}. */
	private final @Nullable ContextWatches watches;

	/** Test seam: told of each event on one of our nodes, once the watcher has handled it. */
	private volatile Consumer<WatchedEvent> changeHandled = (event) -> {
	};

	private volatile Runnable swapped = () -> {
	};

	ZkConfigWatcher(ConfigurableApplicationContext context, CuratorFramework client, LocatorChain locators,
			ConfigContexts contexts, ConfigSnapshotStore snapshots, ZkConfigStatus status, boolean watch,
			List<PropertySource<?>> initial, ZkLogLevels logLevels) {
		this.context = context;
		this.logLevels = logLevels;
		this.client = client;
		this.locators = locators;
		this.contexts = contexts;
		this.snapshots = snapshots;
		this.status = status;
		this.watch = watch;
		this.current = List.copyOf(initial);
		this.watches = watch ? new ContextWatches(client, ContextWatches.of(contexts), this::nodeChanged,
				this::requestReload) : null;
	}

	void start() {
		this.client.getConnectionStateListenable().addListener(this);
		if (this.watches != null) {
			this.status.watched();
			this.watches.arm();
		}
	}

	/** An event on one of our nodes (context or canary): read everything again, and tell the status's listeners. */
	private void nodeChanged(WatchedEvent event) {
		this.locators.nodeChanged(event.getPath());
		requestReload();
		this.status.nodeChanged();
		this.changeHandled.accept(event);
	}

	void onChangeHandled(Consumer<WatchedEvent> hook) {
		this.changeHandled = hook;
	}

	/** Test seam: run on the refresher thread once a new document is in force, before the swap returns. */
	void onSwapped(Runnable hook) {
		this.swapped = hook;
	}

	@Override
	public void stateChanged(CuratorFramework client, ConnectionState state) {
		// a new or resumed session may have missed changes: read everything again, once the watches are in
		// place again (a new session has none), so that no change falls between the read and the watch
		if (state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED) {
			if (this.watches != null) {
				this.watches.arm();
			}
			else if (this.status.isDegraded()) {
				requestReload();
			}
		}
	}

	@Override
	public void onApplicationEvent(ContextRefreshedEvent event) {
		if (event.getApplicationContext() == this.context && !this.ready) {
			this.ready = true;
			if (this.watch || this.status.isDegraded()) {
				requestReload();
			}
		}
	}

	void requestReload() {
		if (this.ready && !this.closed && this.pending.compareAndSet(false, true)) {
			this.refresher.execute(this::reload);
		}
	}

	/**
	 * Reload now on the refresher thread and wait for it, for a refresh the application asks for
	 * (Spring Cloud's {@code ContextRefresher}).
	 */
	void reloadNow(java.time.Duration timeout) {
		if (!this.ready || this.closed) {
			return;
		}
		try {
			this.refresher.submit(this::reload).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException ex) {
			logger.warn("A requested reload of the configuration from ZooKeeper did not finish within " + timeout
					+ " (" + ex.getClass().getName() + "); the current configuration stays in force");
		}
	}

	private void reload() {
		this.pending.set(false);
		if (this.closed) {
			return;
		}
		try {
			if (!this.client.getZookeeperClient().isConnected()) {
				return;
			}
			LocatorChain.Located located = this.locators.locate(this.context.getEnvironment(), this.client, false, logger);
			apply(located);
		}
		catch (ZkStartupException ex) {
			// a server the config center cannot work with: say which, as startup would have
			logger.error(ex.getDescription() + " The current configuration stays in force.");
		}
		catch (RuntimeException ex) {
			logger.warn("Could not reload the configuration from ZooKeeper (" + ex.getClass().getName()
					+ "); the current configuration stays in force");
		}
	}

	private void apply(LocatorChain.Located located) {
		// each context's latest document is judged again: a change elsewhere may make a refused one acceptable
		List<PropertySource<?>> sources = located.sources();
		this.refusedDocuments.settle(sources);
		List<ZkConfigChange> changes = diff(LocatorChain.effective(this.current), LocatorChain.effective(sources));
		ZkConfigApplier applier = changes.isEmpty() ? null
				: this.context.getBeanProvider(ZkConfigApplier.class).getIfUnique();
		if (applier != null) {
			// a refused document is held back and the rest applied, so one bad context cannot block the others
			List<PropertySource<?>> applied = new IsolatingApplier(applier, this.context.getEnvironment(), this::swap,
					this.refusedDocuments).apply(this.current, sources, this::report);
			if (applied == null) {
				return;
			}
			sources = applied;
			changes = diff(LocatorChain.effective(this.current), LocatorChain.effective(sources));
		}
		else {
			swap(LocatorChain.composite(sources));
		}
		this.current = sources;
		this.refusedDocuments.accepted(sources);
		this.refusedAsAWhole = null;
		if (located.complete()) {
			if (this.status.getSource() != ZkConfigStatus.Source.ZOOKEEPER) {
				logger.info("Configuration reconciled with ZooKeeper; no longer running on the snapshot "
						+ this.snapshots.file());
			}
			this.status.setSource(ZkConfigStatus.Source.ZOOKEEPER);
			writeSnapshot(this.snapshots, LocatorChain.znodeSources(sources));
		}
		if (!changes.isEmpty()) {
			logger.info("Configuration from ZooKeeper changed: " + summary(changes));
			this.logLevels.apply(changes);
			publish(new ZkConfigChangedEvent(this.context, sources, changes), "the change is applied");
		}
	}

	/** Log and publish a refusal, once per refused document version. */
	private void report(ZkConfigCandidate candidate, IsolatingApplier.Refusal refusal, @Nullable String znode,
			@Nullable ZnodePropertySource document) {
		String path = (znode != null) ? znode : this.contexts.root();
		if (document != null && !this.refusedDocuments.refuse(document)) {
			return;
		}
		if (document == null) {
			List<Object> signature = List.of(candidate.getZnodeVersions(), candidate.getChanges());
			if (signature.equals(this.refusedAsAWhole)) {
				// the same change again, read after a reconnection: refused and reported already
				return;
			}
			this.refusedAsAWhole = signature;
		}
		// a removed key is found where it was: report the version that removed it
		int version = candidate.getZnodeVersions().getOrDefault(path, -1);
		ZnodePropertySource.Candidate canary = (document != null) ? document.getCandidate() : null;
		if (canary != null) {
			// a canary's candidate is refused, not the base document: name the canary node
			path = canary.znode();
			version = canary.version();
		}
		String key = refusal.key();
		String target = refusal.target();
		logger.warn("Refused the configuration change of znode " + path + " (version " + version + "): "
				+ refusal.reason() + ((key != null) ? " (key '" + key + "')" : "")
				+ ((target != null) ? " (target " + target + ")" : "") + "; the current configuration stays in force");
		publish(new ZkConfigRejectedEvent(this.context, path, version, refusal.reason(), key, target),
				"the change stays refused");
	}

	/**
	 * Publish an event whose outcome is settled: an application listener that throws is logged as what it
	 * is (zk-spring's own listeners are ordered before the application's, so it cannot keep them from the event).
	 */
	private void publish(ApplicationEvent event, String outcome) {
		try {
			this.context.publishEvent(event);
		}
		catch (RuntimeException ex) {
			logger.warn("A listener of " + event.getClass().getSimpleName() + " failed (" + ex.getClass().getName()
					+ "); " + outcome + " and the listeners after it missed the event", ex);
		}
	}

	/**
	 * Put new contexts in force in one step for every reader: the source in the Environment takes their
	 * state in one write, and the masks over the lower sources follow it, so no reader sees the new
	 * document with the old hiding, or the reverse.
	 */
	private void swap(PropertySource<?> composite) {
		MutablePropertySources sources = this.context.getEnvironment().getPropertySources();
		PropertySource<?> inForce = sources.get(ZkConfigInitializer.PROPERTY_SOURCE_NAME);
		if (inForce instanceof ZkConfigPropertySource live && composite instanceof ZkConfigPropertySource next) {
			live.maskBelow(sources);
			live.become(next);
			this.swapped.run();
		}
		else if (inForce != null) {
			// not the source the config center put there: replaced as a whole
			sources.replace(ZkConfigInitializer.PROPERTY_SOURCE_NAME, composite);
			this.swapped.run();
			if (composite instanceof ZkConfigPropertySource config) {
				config.cleared().hideBelow(sources, ZkConfigInitializer.PROPERTY_SOURCE_NAME);
			}
		}
	}

	static void writeSnapshot(ConfigSnapshotStore snapshots, List<ZnodePropertySource> sources) {
		try {
			snapshots.write(sources);
		}
		catch (IOException ex) {
			logger.warn("Could not write the configuration snapshot " + snapshots.file() + " (" + ex
					+ "); a restart while ZooKeeper is down will not find the current configuration");
		}
	}

	static List<ZkConfigChange> diff(Map<String, @Nullable Object> before, Map<String, @Nullable Object> after) {
		List<ZkConfigChange> changes = new ArrayList<>();
		Set<String> keys = new HashSet<>(before.keySet());
		keys.addAll(after.keySet());
		keys.stream().sorted().forEach((key) -> {
			boolean was = before.containsKey(key);
			boolean is = after.containsKey(key);
			if (!was) {
				changes.add(new ZkConfigChange(key, ZkConfigChange.Type.ADDED, null, after.get(key)));
			}
			else if (!is) {
				changes.add(new ZkConfigChange(key, ZkConfigChange.Type.REMOVED, before.get(key), null));
			}
			else if (!Objects.equals(before.get(key), after.get(key))) {
				changes.add(new ZkConfigChange(key, ZkConfigChange.Type.CHANGED, before.get(key), after.get(key)));
			}
		});
		return changes;
	}

	private static String summary(List<ZkConfigChange> changes) {
		List<String> keys = changes.stream().limit(20).map(ZkConfigChange::toString).toList();
		return changes.size() + " key(s) " + keys + ((changes.size() > 20) ? " and more" : "");
	}

	@Override
	public void close() {
		this.closed = true;
		this.client.getConnectionStateListenable().removeListener(this);
		if (this.watches != null) {
			this.watches.close();
		}
		this.refresher.shutdownNow();
		try {
			this.refresher.awaitTermination(5, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
