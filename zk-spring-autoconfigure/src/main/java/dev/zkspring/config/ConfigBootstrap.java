package dev.zkspring.config;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import org.apache.commons.logging.Log;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.zkspring.client.InstanceId;
import dev.zkspring.client.ZkConnectionDetails;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.embedded.EmbeddedZooKeeper;

/**
 * What the config center does once it knows it should, in two steps so both ways of loading share it:
 * {@link #load} (start the shared client, run the locators or fall back to the snapshot) needs no
 * application context, so {@code spring.config.import=zk:} runs it before logging and profiles are
 * settled; {@link #attach} (register the client, start the watcher) runs once the context exists.
 */
final class ConfigBootstrap {

	static final String WATCHER_BEAN = "zkConfigWatcher";

	static final String STATUS_BEAN = "zkConfigStatus";

	/** What Spring Cloud's {@code ContextRefresher} publishes once it has refreshed the Environment. */
	private static final String ENVIRONMENT_CHANGE_EVENT = "org.springframework.cloud.context.environment.EnvironmentChangeEvent";

	private final ConfigSettings config;

	private final ConfigContexts contexts;

	private final ClassLoader classLoader;

	private final Log logger;

	private final boolean requireZooKeeper;

	private final @Nullable ZkConnectionDetails connectionDetails;

	private final ContextRefusals refusals;

	private @Nullable ConfigurableApplicationContext context;

	private @Nullable Loaded loaded;

	private @Nullable ZkConfigWatcher watcher;

	private @Nullable InstanceId instanceId;

	/**
	 * @param settings the bound {@code zk.*} settings
	 * @param contexts the context znodes to read
	 * @param classLoader where the locators and client customizers are found
	 * @param logger where startup lines go (a deferred log before the logging system is initialised)
	 * @param requireZooKeeper whether an unreachable ensemble without a snapshot fails the startup
	 * @param connectionDetails where the ensemble is, when registered before any bean exists (wins over zk.connect)
	 */
	ConfigBootstrap(ConfigSettings settings, ConfigContexts contexts, ClassLoader classLoader, Log logger,
			boolean requireZooKeeper, @Nullable ZkConnectionDetails connectionDetails) {
		this.connectionDetails = connectionDetails;
		this.config = settings;
		this.contexts = contexts;
		this.classLoader = classLoader;
		this.logger = logger;
		this.requireZooKeeper = requireZooKeeper;
		this.refusals = new ContextRefusals(settings, logger);
	}

	/**
	 * Start the client and read the contexts (or the snapshot).
	 * @param environment what the other {@link PropertySourceLocator}s see of the application's settings
	 * @return the config center's property source, named {@link ZkConfigInitializer#PROPERTY_SOURCE_NAME}
	 */
	ZkConfigPropertySource load(ConfigurableEnvironment environment) {
		long maxBytes = maxDocumentBytes();
		// before connecting: a key that cannot be used fails the startup, naming its property
		ValueDecryption decryption = new ValueDecryption(this.config.encryption().cipher(),
				this.config.encryption().acceptUnboundValues());
		List<PropertySourceLocator> locators = SpringFactoriesLoader.forDefaultResourceLocation(this.classLoader)
			.load(PropertySourceLocator.class);
		JsonZnodePropertySourceLocator json = locators.stream()
			.filter(JsonZnodePropertySourceLocator.class::isInstance)
			.map(JsonZnodePropertySourceLocator.class::cast)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("the built-in JSON locator is not registered"));
		// before any bean exists, by the rule the fleet view and the election use: a canary names instances by it
		InstanceId instanceId = InstanceId.resolve(environment);
		this.instanceId = instanceId;
		json.configure(this.contexts, maxBytes, instanceId.value());
		json.onCanaryRejection(this.refusals::canaryRejectedAtStartup);
		json.decryptWith(decryption);
		LocatorChain chain = new LocatorChain(locators);
		SharedClient shared = SharedClient.start(this.config, this.classLoader, this.connectionDetails);
		ConfigSnapshotStore snapshots = ConfigSnapshotStore.forApplication(this.config.snapshotDir(), this.contexts,
				this.config.profileSeparator(), shared.connectString(), this.config.namespace());
		if (!this.config.snapshotEnabled()) {
			snapshots = snapshots.disabled();
		}
		ZkConfigStatus status;
		LocatorChain.Located located;
		try {
			if (shared.connected()) {
				json.onRejection(this.refusals::rejectedAtStartup);
				json.onUnreadable(this.refusals::unreadableAtStartup);
				located = chain.locate(environment, shared.client(), this.config.failFast(), this.logger);
				status = new ZkConfigStatus(ZkConfigStatus.Source.ZOOKEEPER, this.contexts.highestFirst());
				if (located.complete()) {
					ZkConfigWatcher.writeSnapshot(snapshots, located.znodeSources());
				}
			}
			else {
				status = new ZkConfigStatus(startWithoutZooKeeper(shared, snapshots, json, decryption),
						this.contexts.highestFirst());
				located = chain.locate(environment, shared.client(), false, this.logger);
			}
		}
		catch (RuntimeException ex) {
			shared.close();
			throw ex;
		}
		this.loaded = new Loaded(shared, chain, json, snapshots, status, located);
		return LocatorChain.composite(located.sources());
	}

	/** The client loaded with, for the bootstrap registry (call after {@link #load}). */
	CuratorFramework client() {
		return Objects.requireNonNull(this.loaded, "not loaded").shared().client();
	}

	/** The embedded server loaded with, if any (call after {@link #load}). */
	Optional<EmbeddedZooKeeper> server() {
		return Optional.ofNullable(Objects.requireNonNull(this.loaded, "not loaded").shared().server());
	}

	ConfigContexts contexts() {
		return this.contexts;
	}

	/** Whether {@link #attach} has run: the application is up and this is its config center. */
	boolean attached() {
		return this.watcher != null;
	}

	/**
	 * Read the same contexts again on the same session, through the watcher (validated and applied as
	 * any change), for a refresh that re-runs Boot's config-data processing (Spring Cloud's
	 * {@code ContextRefresher}).
	 * @return the config center's source now in force
	 */
	PropertySource<?> reload() {
		ConfigurableApplicationContext context = Objects.requireNonNull(this.context, "not attached");
		Objects.requireNonNull(this.watcher, "not attached").reloadNow(this.config.connectionTimeout().multipliedBy(2));
		return Objects.requireNonNull(context.getEnvironment().getPropertySources().get(ZkConfigInitializer.PROPERTY_SOURCE_NAME),
				"the config center's property source was removed from the Environment");
	}

	/** Close what {@link #load} started when no context has taken it over (a startup failing in between). */
	void closeUnlessAttached() {
		if (this.loaded != null && this.context == null) {
			this.loaded.shared().close();
		}
	}

	/** Make the client the application's bean and keep the loaded source current with the watcher. */
	void attach(ConfigurableApplicationContext context) {
		Loaded loaded = Objects.requireNonNull(this.loaded, "not loaded");
		this.context = context;
		MutablePropertySources sources = context.getEnvironment().getPropertySources();
		// before anything is hidden: the levels Boot applied are where a {} under logging.level starts from
		ZkLogLevels logLevels = new ZkLogLevels(context.getEnvironment(), context.getClassLoader());
		if (sources.get(ZkConfigInitializer.PROPERTY_SOURCE_NAME) instanceof ZkConfigPropertySource composite) {
			// an empty value ({} or []) in ZooKeeper clears what the lower sources hold below that key
			composite.cleared().hideBelow(sources, ZkConfigInitializer.PROPERTY_SOURCE_NAME);
		}
		loaded.json().onRejection((rejection, kept) -> ContextRefusals.rejectedWhileRunning(context, rejection, kept));
		loaded.json().onUnreadable(ContextRefusals::unreadableWhileRunning);
		loaded.json().onCanaryRejection((rejection, base) -> ContextRefusals.canaryRejectedWhileRunning(context, rejection,
				base));
		loaded.shared().register(context);
		logLevels.applyKeys(LocatorChain.effective(loaded.located().sources()).keySet());
		ZkConfigWatcher watcher = new ZkConfigWatcher(context, loaded.shared().client(), loaded.chain(), this.contexts,
				loaded.snapshots(), loaded.status(), this.config.watch(), loaded.located().sources(), logLevels);
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		beanFactory.registerSingleton(STATUS_BEAN, loaded.status());
		if (!beanFactory.containsBean(InstanceId.BEAN_NAME)) {
			beanFactory.registerSingleton(InstanceId.BEAN_NAME, Objects.requireNonNull(this.instanceId));
		}
		beanFactory.registerSingleton(WATCHER_BEAN, watcher);
		((DefaultSingletonBeanRegistry) beanFactory).registerDisposableBean(WATCHER_BEAN, watcher::close);
		beanFactory.registerDependentBean(SharedClient.CLIENT_BEAN, WATCHER_BEAN);
		context.addApplicationListener(watcher);
		context.addApplicationListener((ApplicationEvent event) -> {
			// Spring Cloud's refresh, which in its legacy bootstrap mode reads nothing of ours: reload on this session
			if (ENVIRONMENT_CHANGE_EVENT.equals(event.getClass().getName())) {
				watcher.reloadNow(this.config.connectionTimeout().multipliedBy(2));
			}
		});
		watcher.start();
		this.watcher = watcher;
		this.logger.info("Loaded configuration from " + loaded.status().getSource() + " for contexts "
				+ this.contexts.highestFirst() + " (" + LocatorChain.effective(loaded.located().sources()).size()
				+ " keys)");
	}

	private ZkConfigStatus.Source startWithoutZooKeeper(SharedClient shared, ConfigSnapshotStore snapshots,
			JsonZnodePropertySourceLocator json, ValueDecryption decryption) {
		String unreachable = "ZooKeeper at '" + shared.connectString() + "' could not be reached within "
				+ this.config.connectionTimeout() + " (zk.connection-timeout)";
		List<ZnodePropertySource> snapshot;
		String noSnapshot;
		try {
			snapshot = decrypted(snapshots.read(), decryption, snapshots);
			noSnapshot = snapshots.enabled() ? "there is no configuration snapshot at " + snapshots.file()
					: "snapshots are off (zk.config.snapshot-enabled=false)";
		}
		catch (IOException ex) {
			snapshot = null;
			noSnapshot = "the configuration snapshot cannot be used (" + ex.getMessage() + ")";
		}
		if (snapshot != null) {
			json.restore(snapshot);
			this.logger.warn(unreachable + "; starting from the last-known-good configuration snapshot " + snapshots.file()
					+ ". The application is degraded until it connects and reconciles with ZooKeeper.");
			return ZkConfigStatus.Source.SNAPSHOT;
		}
		if (this.requireZooKeeper) {
			throw new ZkStartupException(unreachable + ", and " + noSnapshot + " to start from.",
					"Check that the ensemble in zk.connect is running and reachable from this host, or raise "
							+ "zk.connection-timeout; set zk.config.fail-fast=false to start without ZooKeeper's "
							+ "configuration until it can be reached.");
		}
		json.restore(List.of());
		this.logger.warn(unreachable + ", and " + noSnapshot + "; starting without ZooKeeper's configuration "
				+ "(zk.config.fail-fast=false) until it connects.");
		return ZkConfigStatus.Source.NONE;
	}

	/** The snapshot's sources with their {@code {cipher}} values decrypted, as those read from ZooKeeper are. */
	private static @Nullable List<ZnodePropertySource> decrypted(@Nullable List<ZnodePropertySource> snapshot,
			ValueDecryption decryption, ConfigSnapshotStore snapshots) throws IOException {
		if (snapshot == null) {
			return null;
		}
		List<ZnodePropertySource> decrypted = new ArrayList<>();
		for (ZnodePropertySource source : snapshot) {
			try {
				decrypted.add(decryption.source(source.getZnode(), source.getVersion(), source.stored(),
						source.getCandidate()));
			}
			catch (DocumentRejectedException ex) {
				throw new IOException("the snapshot " + snapshots.file() + " holds context " + source.getZnode()
						+ " (version " + source.getVersion() + "), and " + ex.reason());
			}
		}
		return decrypted;
	}

	private long maxDocumentBytes() {
		if (this.config.maxDocumentSize() == null || this.config.maxDocumentSize().toBytes() <= 0) {
			throw new ZkStartupException("zk.config.max-document-size is " + this.config.maxDocumentSize() + ".",
					"Set zk.config.max-document-size to a positive size such as 1MB.");
		}
		return this.config.maxDocumentSize().toBytes();
	}

	/** What {@link #load} started and read, for {@link #attach}. */
	private record Loaded(SharedClient shared, LocatorChain chain, JsonZnodePropertySourceLocator json,
			ConfigSnapshotStore snapshots, ZkConfigStatus status, LocatorChain.Located located) {

	}

}
