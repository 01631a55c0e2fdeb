package dev.zkspring.config;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.DefaultSingletonBeanRegistry;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.support.SpringFactoriesLoader;

import dev.zkspring.client.CuratorFrameworkCustomizer;
import dev.zkspring.client.ZkClientFactory;
import dev.zkspring.client.ZkConnectionDetails;
import dev.zkspring.client.ZkStartupException;
import dev.zkspring.embedded.EmbeddedZooKeeper;

/**
 * The application's one client (and embedded server), started before any bean exists and registered
 * under the bean names the auto-configuration uses, so it backs off. Customizer beans cannot reach a
 * client built this early: customizers come from {@code spring.factories} instead, and customizer
 * beans that would have been ignored are named in a warning. An application's own client bean must
 * be {@code @Primary}, or the startup fails saying what to change.
 */
final class SharedClient {

	static final String CLIENT_BEAN = "curatorFramework";

	static final String SERVER_BEAN = "zkEmbeddedServer";

	private static final Log logger = LogFactory.getLog(ZkConfigInitializer.class);

	private final @Nullable EmbeddedZooKeeper server;

	private final CuratorFramework client;

	private final String connectString;

	private final boolean connected;

	private final List<CuratorFrameworkCustomizer> customizers;

	private final boolean fromConnectionDetails;

	private SharedClient(@Nullable EmbeddedZooKeeper server, CuratorFramework client, String connectString,
			boolean connected, List<CuratorFrameworkCustomizer> customizers, boolean fromConnectionDetails) {
		this.server = server;
		this.client = client;
		this.connectString = connectString;
		this.connected = connected;
		this.customizers = customizers;
		this.fromConnectionDetails = fromConnectionDetails;
	}

	/**
	 * Start the embedded server if enabled, then the client; wait up to zk.connection-timeout for it.
	 * @param details connection details registered before any bean exists; they win over {@code zk.connect}
	 */
	static SharedClient start(ConfigSettings settings, ClassLoader classLoader, @Nullable ZkConnectionDetails details) {
		EmbeddedZooKeeper server = null;
		try {
			String connect = (details != null) ? details.getConnectString() : settings.connect();
			if (settings.embedded()) {
				server = EmbeddedZooKeeper.start(settings.embeddedPort(), settings.embeddedDataDir());
				connect = server.connectString();
			}
			List<CuratorFrameworkCustomizer> customizers = SpringFactoriesLoader
				.forDefaultResourceLocation(classLoader)
				.load(CuratorFrameworkCustomizer.class);
			CuratorFramework client = ZkClientFactory.create(settings.client(), connect, customizers);
			boolean connected = ZkClientFactory.tryStart(client, settings.connectionTimeout());
			return new SharedClient(server, client, String.valueOf(connect), connected, customizers,
					details != null && !settings.embedded());
		}
		catch (RuntimeException ex) {
			if (server != null) {
				server.close();
			}
			throw ex;
		}
	}

	CuratorFramework client() {
		return this.client;
	}

	@Nullable EmbeddedZooKeeper server() {
		return this.server;
	}

	String connectString() {
		return this.connectString;
	}

	boolean connected() {
		return this.connected;
	}

	/** Close what {@link #start} started, client first, for a startup that fails before registration. */
	void close() {
		this.client.close();
		if (this.server != null) {
			this.server.close();
		}
	}

	/** Register client and server as singletons closed with the context, the client before the server. */
	void register(ConfigurableApplicationContext context) {
		ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
		DefaultSingletonBeanRegistry registry = (DefaultSingletonBeanRegistry) beanFactory;
		if (this.server != null) {
			this.server.publishConnectString(context.getEnvironment());
			beanFactory.registerSingleton(SERVER_BEAN, this.server);
			registry.registerDisposableBean(SERVER_BEAN, this.server::close);
		}
		beanFactory.registerSingleton(CLIENT_BEAN, this.client);
		registry.registerDisposableBean(CLIENT_BEAN, this.client::close);
		if (this.server != null) {
			beanFactory.registerDependentBean(SERVER_BEAN, CLIENT_BEAN);
		}
		context.addBeanFactoryPostProcessor(this::checkBeansTheEarlyClientIgnores);
	}

	private void checkBeansTheEarlyClientIgnores(ConfigurableListableBeanFactory beanFactory) {
		Set<Class<?>> applied = this.customizers.stream().map(Object::getClass).collect(Collectors.toSet());
		List<String> ignored = Arrays.stream(beanFactory.getBeanNamesForType(CuratorFrameworkCustomizer.class, true, false))
			.filter((name) -> !applied.contains(beanFactory.getType(name, false)))
			.toList();
		List<String> otherClients = Arrays.stream(beanFactory.getBeanNamesForType(CuratorFramework.class, true, false))
			.filter((name) -> !CLIENT_BEAN.equals(name))
			.toList();
		if (!otherClients.isEmpty()) {
			boolean primary = otherClients.stream()
				.anyMatch((name) -> beanFactory.containsBeanDefinition(name) && beanFactory.getBeanDefinition(name).isPrimary());
			if (!primary) {
				throw new ZkStartupException("The application defines its own CuratorFramework bean " + otherClients
						+ " while the config center (zk.config.enabled) has registered the application's client as '"
						+ CLIENT_BEAN + "', so no single client can be injected.",
						"Set zk.config.enabled=false to use only your own client, or mark yours @Primary (the config "
								+ "center then keeps a second session), or remove yours and customize the config "
								+ "center's client with a CuratorFrameworkCustomizer registered in META-INF/spring.factories.");
			}
			logger.warn("CuratorFramework beans " + otherClients + " are defined next to the config center's client '"
					+ CLIENT_BEAN + "': the application holds a second ZooKeeper session.");
		}
		String[] details = beanFactory.getBeanNamesForType(ZkConnectionDetails.class, true, false);
		if (details.length > 0 && !this.fromConnectionDetails) {
			throw new ZkStartupException("The application defines ZkConnectionDetails " + Arrays.toString(details)
					+ ", but the config center's client was created before any bean exists, connected to '"
					+ this.connectString + "' (zk.connect" + ((this.server != null) ? ", zk.embedded.enabled" : "") + ").",
					"Register the connection details before the context refreshes (an ApplicationContextInitializer, "
							+ "a test ContextCustomizer, or Boot's BootstrapRegistry with spring.config.import=zk:), "
							+ "or set zk.connect instead (for example from @DynamicPropertySource), or set "
							+ "zk.config.enabled=false.");
		}
		if (!ignored.isEmpty()) {
			logger.warn("CuratorFrameworkCustomizer beans " + ignored + " were not applied: with zk.config.enabled the "
					+ "client is created before any bean exists. Register them in META-INF/spring.factories under "
					+ CuratorFrameworkCustomizer.class.getName() + " instead.");
		}
	}

}
