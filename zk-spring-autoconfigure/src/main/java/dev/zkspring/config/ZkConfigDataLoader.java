package dev.zkspring.config;

import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.bootstrap.BootstrapRegistry.InstanceSupplier;
import org.springframework.boot.bootstrap.ConfigurableBootstrapContext;
import org.springframework.boot.context.config.ConfigData;
import org.springframework.boot.context.config.ConfigDataLoader;
import org.springframework.boot.context.config.ConfigDataLoaderContext;
import org.springframework.boot.logging.DeferredLogFactory;

import dev.zkspring.client.RunWithoutZooKeeper;
import dev.zkspring.client.ZkConnectionDetails;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.embedded.EmbeddedZooKeeper;

/**
 * Loads a {@code zk:} import with the initializer's machinery and keeps one client, one session and
 * one watcher: the client goes into Boot's bootstrap registry and, when the application context is
 * prepared, becomes its {@code curatorFramework} bean with the watcher started on it (the initializer
 * then sees the source loaded and steps aside). Without {@code optional:}, an unreachable ensemble with
 * no snapshot fails the startup; with it, the application starts and the watcher loads on connect.
 * Once the application runs, a load in the same bootstrap context is a refresh (Spring Cloud's
 * {@code ContextRefresher} re-runs Boot's config-data processing): it reloads the same contexts on the
 * same session through the watcher and answers with the source in force. Loads nothing in a
 * {@link RunWithoutZooKeeper} (AOT processing, a CDS training run). Registered in
 * {@code META-INF/spring.factories}.
 */
public class ZkConfigDataLoader implements ConfigDataLoader<ZkConfigDataResource> {

	private final Log logger;

	/**
	 * Created by Boot.
	 * @param logs Boot's deferred logs, written once the logging system is initialised
	 */
	public ZkConfigDataLoader(DeferredLogFactory logs) {
		this.logger = logs.getLog(ZkConfigInitializer.class);
	}

	@Override
	public ConfigData load(ConfigDataLoaderContext context, ZkConfigDataResource resource) {
		ConfigurableBootstrapContext bootstrap = context.getBootstrapContext();
		if (bootstrap.isRegistered(ConfigBootstrap.class)) {
			ConfigBootstrap loaded = bootstrap.get(ConfigBootstrap.class);
			if (loaded.attached()) {
				// a refresh re-running config-data processing (Spring Cloud's): the same contexts, the same session
				return new ConfigData(List.of(loaded.reload()), ConfigData.Option.IGNORE_IMPORTS,
						ConfigData.Option.IGNORE_PROFILES);
			}
			throw new ZkStartupException("spring.config.import names ZooKeeper more than once (" + resource
					+ " comes after " + bootstrap.get(ConfigBootstrap.class).contexts().root() + ").",
					"Import ZooKeeper once per application; list several roots in that one location, separated by "
							+ "';' (zk:/a;/b, the last root wins).");
		}
		String withoutZooKeeper = RunWithoutZooKeeper.reason();
		if (withoutZooKeeper != null) {
			this.logger.info("Ignoring the import of " + resource + ": " + withoutZooKeeper);
			return ConfigData.EMPTY;
		}
		ConfigSettings settings = resource.settings();
		// the early counterpart of a ZkConnectionDetails bean: one in Boot's bootstrap registry wins over zk.connect
		ZkConnectionDetails details = bootstrap.isRegistered(ZkConnectionDetails.class)
				? bootstrap.get(ZkConnectionDetails.class) : null;
		ConfigBootstrap config = new ConfigBootstrap(settings, resource.contexts(),
				ZkConfigDataLoader.class.getClassLoader(), this.logger, settings.failFast() && !resource.optional(),
				details);
		ConfigData data = new ConfigData(List.of(config.load(resource.environment())),
				ConfigData.Option.IGNORE_IMPORTS, ConfigData.Option.IGNORE_PROFILES);
		bootstrap.register(ConfigBootstrap.class, InstanceSupplier.of(config));
		bootstrap.registerIfAbsent(CuratorFramework.class, InstanceSupplier.of(config.client()));
		config.server().ifPresent((server) -> bootstrap.registerIfAbsent(EmbeddedZooKeeper.class, InstanceSupplier.of(server)));
		bootstrap.addCloseListener((event) -> event.getBootstrapContext()
			.get(ConfigBootstrap.class)
			.attach(event.getApplicationContext()));
		return data;
	}

}
