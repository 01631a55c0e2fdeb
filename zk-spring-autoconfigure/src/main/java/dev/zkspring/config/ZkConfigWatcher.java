package dev.zkspring.config;

import java.io.IOException;
import java.util.List;
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

	private final ChangeReports reports;

	private final ZkLogLevels logLevels;

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
		this.reports = new ChangeReports(context, contexts, this.refusedDocuments);
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
		List<ZkConfigChange> changes = ZkConfigChange.between(LocatorChain.effective(this.current), LocatorChain.effective(sources));
		ZkConfigApplier applier = changes.isEmpty() ? null
				: this.context.getBeanProvider(ZkConfigApplier.class).getIfUnique();
		if (applier != null) {
			// a refused document is held back and the rest applied, so one bad context cannot block the others
			List<PropertySource<?>> applied = new IsolatingApplier(applier, this.context.getEnvironment(), this::swap,
					this.refusedDocuments).apply(this.current, sources, this.reports::refused);
			if (applied == null) {
				return;
			}
			sources = applied;
			changes = ZkConfigChange.between(LocatorChain.effective(this.current), LocatorChain.effective(sources));
		}
		else {
			swap(LocatorChain.composite(sources));
		}
		this.current = sources;
		this.refusedDocuments.accepted(sources);
		this.reports.accepted();
		if (located.complete()) {
			if (this.status.getSource() != ZkConfigStatus.Source.ZOOKEEPER) {
				logger.info("Configuration reconciled with ZooKeeper; no longer running on the snapshot "
						+ this.snapshots.file());
			}
			this.status.setSource(ZkConfigStatus.Source.ZOOKEEPER);
			writeSnapshot(this.snapshots, LocatorChain.znodeSources(sources));
		}
		if (!changes.isEmpty()) {
			logger.info("Configuration from ZooKeeper changed: " + ChangeReports.summary(changes));
			this.logLevels.apply(changes);
			this.reports.publish(new ZkConfigChangedEvent(this.context, sources, changes), "the change is applied");
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
