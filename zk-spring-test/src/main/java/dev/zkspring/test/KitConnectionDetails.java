package dev.zkspring.test;

import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.StringUtils;

import dev.zkspring.client.ZkConnectionDetails;

/**
 * The test context's connection details: its {@code zk.connect} (the shared server's chroot, unless
 * {@link AutoConfigureZooKeeper.Replace#NONE}), resolved when the application's first client needs
 * them, which is the last moment before it reads: the {@link ZkConfig} documents are written then,
 * with everything the application has bound by that time (its files, test and dynamic properties).
 */
final class KitConnectionDetails implements ZkConnectionDetails {

	private static final String BEAN_NAME = "zkTestConnectionDetails";

	private final ZkTestSettings settings;

	private final Supplier<Binder> binder;

	private final Supplier<@Nullable String> kitConnect;

	private final @Nullable ClassLoader classLoader;

	private @Nullable String connect;

	KitConnectionDetails(ZkTestSettings settings, Supplier<Binder> binder, Supplier<@Nullable String> kitConnect,
			@Nullable ClassLoader classLoader) {
		this.settings = settings;
		this.binder = binder;
		this.kitConnect = kitConnect;
		this.classLoader = classLoader;
	}

	/**
	 * Gives the context the kit's details as a fallback bean, which the config center's early client resolves:
	 * connection details of the application's own (a container) win, as with Boot's test database.
	 */
	static void registerFallback(ConfigurableApplicationContext context, ZkTestSettings settings) {
		RootBeanDefinition details = new RootBeanDefinition(ZkConnectionDetails.class,
				() -> new KitConnectionDetails(settings, () -> Binder.get(context.getEnvironment()),
						() -> ZkTestRunListener.kitConnect(context.getEnvironment()), context.getClassLoader()));
		details.setFallback(true);
		((BeanDefinitionRegistry) context.getBeanFactory()).registerBeanDefinition(BEAN_NAME, details);
	}

	@Override
	public synchronized String getConnectString() {
		if (this.connect == null) {
			Binder binder = this.binder.get();
			// the kit's chroot wins even over a test's own zk.connect property (Replace.ANY)
			String connect = this.kitConnect.get();
			if (connect == null) {
				connect = binder.bind("zk.connect", String.class).orElse(null);
			}
			if (!StringUtils.hasText(connect)) {
				throw new IllegalStateException("The test uses @AutoConfigureZooKeeper(replace = NONE) but zk.connect "
						+ "is not set: set it to the ZooKeeper the test should use, or drop replace = NONE.");
			}
			this.settings.seed(binder, connect, this.classLoader);
			this.connect = connect;
		}
		return this.connect;
	}

}
