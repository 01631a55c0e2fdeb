package dev.zkspring.config;

import java.util.Arrays;

import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.util.ClassUtils;

import dev.zkspring.client.RunWithoutZooKeeper;
import dev.zkspring.client.ZkConnectionDetails;
import dev.zkspring.client.ZkStartupException;

/**
 * Loads the configuration from ZooKeeper into the Environment before any bean is created. It starts
 * the application's one client (and the embedded server when {@code zk.embedded.enabled}) and
 * registers them as the {@code curatorFramework} and {@code zkEmbeddedServer} beans, so the
 * auto-configuration reuses them: one session per application. Does nothing when {@code zk.enabled}
 * or {@code zk.config.enabled} is false, and steps aside when {@code spring.config.import=zk:} has
 * loaded the configuration already ({@link ZkConfigDataLoader}), and loads nothing in a
 * {@link RunWithoutZooKeeper} (AOT processing, a CDS training run). Registered in {@code META-INF/spring.factories}.
 */
public class ZkConfigInitializer implements ApplicationContextInitializer<ConfigurableApplicationContext>, Ordered {

	/** Name of the config center's composite property source in the Environment. */
	public static final String PROPERTY_SOURCE_NAME = "zkConfig";

	/** The property source Spring Cloud's legacy {@code ContextRefresher} marks its throwaway environment with. */
	private static final String REFRESH_ARGS = "refreshArgs";

	/** The property source Spring Cloud's legacy bootstrap context is built with. */
	private static final String SPRING_CLOUD_BOOTSTRAP = "bootstrap";

	private static final String CURATOR = "org.apache.curator.framework.CuratorFramework";

	private static final String JACKSON = "tools.jackson.databind.json.JsonMapper";

	/**
	 * Last, so that what other initializers add to the Environment (a test's
	 * {@code @DynamicPropertySource} setting {@code zk.connect}, for one) is seen.
	 */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void initialize(ConfigurableApplicationContext context) {
		ConfigurableEnvironment environment = context.getEnvironment();
		if (environment.getPropertySources().contains(PROPERTY_SOURCE_NAME)) {
			// spring.config.import=zk: has loaded it, or a child context shares its parent's configuration and client
			return;
		}
		if (environment.getPropertySources().contains(SPRING_CLOUD_BOOTSTRAP)
				|| environment.getPropertySources().contains(REFRESH_ARGS)) {
			// Spring Cloud's legacy bootstrap context, or the throwaway context its refresh builds to re-read the
			// files: the application's own context loads, and its watcher reloads on refresh, on its one session
			return;
		}
		ConfigSettings settings = settings(Binder.get(environment), context.getClassLoader());
		String withoutZooKeeper = RunWithoutZooKeeper.reason();
		if (settings != null && withoutZooKeeper != null) {
			LogFactory.getLog(ZkConfigInitializer.class).info("Not connecting to ZooKeeper and not loading its configuration: "
					+ withoutZooKeeper);
		}
		else if (settings != null) {
			load(context, settings);
		}
	}

	/**
	 * The znode holding a context's document under this environment's {@code zk.config.root} (inside
	 * {@code zk.namespace}), for test kits and tools that write documents before an application starts.
	 * @param binder where {@code zk.config.root} is read ({@code Binder.get(environment)})
	 * @param context a context name, such as {@code orders} or {@code orders,dev}
	 */
	public static String contextZnode(Binder binder, String context) {
		String root = binder.bind(ZkConfigProperties.PREFIX + ".root", String.class)
			.orElseGet(() -> new ZkConfigProperties().getRoot());
		return ConfigContexts.znode(ConfigContexts.root(root), context);
	}

	/**
	 * The config center's settings, shared with the {@code zk:} import.
	 * @return {@code null} when {@code zk.enabled} or {@code zk.config.enabled} is false or Curator is absent
	 */
	static @Nullable ConfigSettings settings(Binder binder, @Nullable ClassLoader classLoader) {
		ConfigSettings settings = ConfigSettings.bind(binder);
		if (settings == null || !ClassUtils.isPresent(CURATOR, classLoader)) {
			return null;
		}
		if (!ClassUtils.isPresent(JACKSON, classLoader)) {
			throw new ZkStartupException(
					"zk.config.enabled is true but Jackson (tools.jackson.core:jackson-databind), which reads the "
							+ "configuration znodes, is not on the classpath.",
					"Depend on zk-spring-starter, which brings it, or add tools.jackson.core:jackson-databind; "
							+ "or set zk.config.enabled=false to run without the config center.");
		}
		return settings;
	}

	/** Load and attach in one go, the source inserted above the packaged files. */
	private static void load(ConfigurableApplicationContext context, ConfigSettings settings) {
		ConfigurableEnvironment environment = context.getEnvironment();
		ConfigContexts contexts = ConfigContexts.of(settings, environment.getProperty("spring.application.name"),
				Arrays.asList(environment.getActiveProfiles()));
		// connection details registered before refresh (a test's ContextCustomizer, an initializer) win over zk.connect
		// looked up without eager initialisation first: nothing else is created this early
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		ZkConnectionDetails details = (beanFactory.getBeanNamesForType(ZkConnectionDetails.class, true, false).length > 0)
				? beanFactory.getBeanProvider(ZkConnectionDetails.class).getIfAvailable() : null;
		ConfigBootstrap bootstrap = new ConfigBootstrap(settings, contexts, context.getClassLoader(),
				LogFactory.getLog(ZkConfigInitializer.class), settings.failFast(), details);
		insert(environment, bootstrap.load(environment));
		bootstrap.attach(context);
	}

	/** Above the packaged application*.yml/properties, below command line, system properties and environment. */
	private static void insert(ConfigurableEnvironment environment, ZkConfigPropertySource composite) {
		MutablePropertySources sources = environment.getPropertySources();
		if (sources.contains(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME)) {
			sources.addAfter(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, composite);
		}
		else if (sources.contains(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME)) {
			sources.addAfter(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, composite);
		}
		else {
			sources.addLast(composite);
		}
	}

}
