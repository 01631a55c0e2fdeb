package dev.zkspring.config;

import java.io.IOException;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.zkspring.client.ZkStartupException;

/**
 * What {@link ZkConfigInitializer} does once it knows it should: start the shared client, run the
 * locators (or fall back to the snapshot), insert the composite source, start the watcher.
 */
final class ConfigBootstrap {

	static final String WATCHER_BEAN = "zkConfigWatcher";

	static final String STATUS_BEAN = "zkConfigStatus";

	private static final Log logger = LogFactory.getLog(ZkConfigInitializer.class);

	private final ConfigurableApplicationContext context;

	private final ConfigurableEnvironment environment;

	private final ConfigSettings config;

	ConfigBootstrap(ConfigurableApplicationContext context, ConfigSettings settings) {
		this.context = context;
		this.environment = context.getEnvironment();
		this.config = settings;
	}

	void run() {
		ConfigContexts contexts = ConfigContexts.of(this.config, this.environment);
		long maxBytes = maxDocumentBytes();
		List<PropertySourceLocator> locators = SpringFactoriesLoader
			.forDefaultResourceLocation(this.context.getClassLoader())
			.load(PropertySourceLocator.class);
		JsonZnodePropertySourceLocator json = locators.stream()
			.filter(JsonZnodePropertySourceLocator.class::isInstance)
			.map(JsonZnodePropertySourceLocator.class::cast)
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("the built-in JSON locator is not registered"));
		json.configure(contexts, maxBytes);
		LocatorChain chain = new LocatorChain(locators);
		SharedClient shared = SharedClient.start(this.config, this.context);
		ConfigSnapshotStore snapshots = ConfigSnapshotStore.forApplication(this.config.snapshotDir(), contexts,
				this.config.profileSeparator(), shared.connectString(), this.config.namespace());
		ZkConfigStatus status;
		LocatorChain.Located located;
		try {
			if (shared.connected()) {
				json.onRejection(this::rejectedAtStartup);
				json.onUnreadable(this::unreadableAtStartup);
				located = chain.locate(this.environment, shared.client(), this.config.failFast());
				status = new ZkConfigStatus(ZkConfigStatus.Source.ZOOKEEPER);
				if (located.complete()) {
					ZkConfigWatcher.writeSnapshot(snapshots, located.znodeSources());
				}
			}
			else {
				status = new ZkConfigStatus(startWithoutZooKeeper(shared, snapshots, json));
				located = chain.locate(this.environment, shared.client(), false);
			}
		}
		catch (RuntimeException ex) {
			shared.close();
			throw ex;
		}
		json.onRejection(this::rejectedWhileRunning);
		json.onUnreadable(ConfigBootstrap::unreadableWhileRunning);
		shared.register(this.context);
		insert(LocatorChain.composite(located.sources()));
		ZkLogLevels logLevels = new ZkLogLevels(this.environment, this.context.getClassLoader());
		logLevels.applyKeys(LocatorChain.effective(located.sources()).keySet());
		ZkConfigWatcher watcher = new ZkConfigWatcher(this.context, shared.client(), chain, contexts, snapshots, status,
				this.config.watch(), located.sources(), logLevels);
		ConfigurableListableBeanFactory beanFactory = this.context.getBeanFactory();
		beanFactory.registerSingleton(STATUS_BEAN, status);
		beanFactory.registerSingleton(WATCHER_BEAN, watcher);
		((DefaultSingletonBeanRegistry) beanFactory).registerDisposableBean(WATCHER_BEAN, watcher::close);
		beanFactory.registerDependentBean(SharedClient.CLIENT_BEAN, WATCHER_BEAN);
		this.context.addApplicationListener(watcher);
		watcher.start();
		logger.info("Loaded configuration from " + status.getSource() + " for contexts " + contexts.highestFirst()
				+ " (" + LocatorChain.effective(located.sources()).size() + " keys)");
	}

	private ZkConfigStatus.Source startWithoutZooKeeper(SharedClient shared, ConfigSnapshotStore snapshots,
			JsonZnodePropertySourceLocator json) {
		String unreachable = "ZooKeeper at '" + shared.connectString() + "' could not be reached within "
				+ this.config.connectionTimeout() + " (zk.connection-timeout)";
		List<ZnodePropertySource> snapshot = readSnapshot(snapshots);
		if (snapshot != null) {
			json.restore(snapshot);
			logger.warn(unreachable + "; starting from the last-known-good configuration snapshot " + snapshots.file()
					+ ". The application is degraded until it connects and reconciles with ZooKeeper.");
			return ZkConfigStatus.Source.SNAPSHOT;
		}
		if (this.config.failFast()) {
			throw new ZkStartupException(unreachable + ", and there is no configuration snapshot at " + snapshots.file()
					+ " to start from.",
					"Check that the ensemble in zk.connect is running and reachable from this host, or raise "
							+ "zk.connection-timeout; set zk.config.fail-fast=false to start without ZooKeeper's "
							+ "configuration until it can be reached.");
		}
		json.restore(List.of());
		logger.warn(unreachable + " and there is no configuration snapshot at " + snapshots.file()
				+ "; starting without ZooKeeper's configuration (zk.config.fail-fast=false) until it connects.");
		return ZkConfigStatus.Source.NONE;
	}

	private @Nullable List<ZnodePropertySource> readSnapshot(ConfigSnapshotStore snapshots) {
		try {
			return snapshots.read();
		}
		catch (IOException ex) {
			logger.warn("Ignoring the configuration snapshot: " + ex.getMessage());
			return null;
		}
	}

	private void rejectedAtStartup(JsonZnodePropertySourceLocator.Rejection rejection,
			@Nullable ZnodePropertySource kept) {
		String description = "The configuration in znode " + rejection.znode() + " (version " + rejection.version()
				+ ") was rejected: " + rejection.reason() + ".";
		if (this.config.failFast()) {
			throw new ZkStartupException(description, "Fix the document in " + rejection.znode()
					+ ": one UTF-8 JSON object, at most " + this.config.maxDocumentSize()
					+ " (zk.config.max-document-size), at most " + JsonDocumentParser.MAX_DEPTH
					+ " levels deep. Or set zk.config.fail-fast=false to start "
					+ "without that context.");
		}
		logger.warn(description + " Starting without that context (zk.config.fail-fast=false).");
	}

	private void unreadableAtStartup(String znode, KeeperException.Code code, @Nullable ZnodePropertySource kept) {
		String description = "The config context znode " + znode + " cannot be read (" + code + "): "
				+ ((code == KeeperException.Code.NOAUTH) ? "its ACL does not let this application's identity read it."
						: "ZooKeeper refused the read.");
		if (this.config.failFast()) {
			throw new ZkStartupException(description, "This is an ACL/auth problem: give the identity in zk.auth.* "
					+ "read permission on " + znode + " (setAcl), or set zk.auth.scheme and zk.auth.credentials to an "
					+ "identity that has it; or set zk.config.fail-fast=false to start without that context.");
		}
		logger.warn(description + " Starting without that context (zk.config.fail-fast=false); the other contexts "
				+ "are loaded, and no snapshot is written until every context can be read.");
	}

	private static void unreadableWhileRunning(String znode, KeeperException.Code code,
			@Nullable ZnodePropertySource kept) {
		logger.warn("The config context znode " + znode + " cannot be read (" + code + ", an ACL/auth problem); "
				+ ((kept != null) ? "its last good version (" + kept.getVersion() + ") stays in force"
						: "the context stays empty")
				+ " and the other contexts are unaffected");
	}

	private void rejectedWhileRunning(JsonZnodePropertySourceLocator.Rejection rejection,
			@Nullable ZnodePropertySource kept) {
		logger.warn("Rejected the configuration in znode " + rejection.znode() + " (version " + rejection.version()
				+ "): " + rejection.reason() + "; "
				+ ((kept != null) ? "its last good version (" + kept.getVersion() + ") stays in force"
						: "the context stays empty"));
		this.context.publishEvent(new ZkConfigRejectedEvent(this.context, rejection.znode(), rejection.version(),
				rejection.reason(), rejection.key()));
	}

	/** Above the packaged application*.yml/properties, below command line, system properties and environment. */
	private void insert(ZkConfigPropertySource composite) {
		MutablePropertySources sources = this.environment.getPropertySources();
		if (sources.contains(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
			sources.addAfter(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, composite);
		}
		else if (sources.contains(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME)) {
			sources.addAfter(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, composite);
		}
		else {
			sources.addLast(composite);
		}
		// an empty value ({} or []) in ZooKeeper clears what the lower sources hold below that key
		composite.cleared().hideBelow(sources, ZkConfigInitializer.PROPERTY_SOURCE_NAME);
	}

	private long maxDocumentBytes() {
		if (this.config.maxDocumentSize() == null || this.config.maxDocumentSize().toBytes() <= 0) {
			throw new ZkStartupException("zk.config.max-document-size is " + this.config.maxDocumentSize() + ".",
					"Set zk.config.max-document-size to a positive size such as 1MB.");
		}
		return this.config.maxDocumentSize().toBytes();
	}

}
