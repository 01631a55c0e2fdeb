package dev.zkspring.test;

import java.util.LinkedHashMap;
import java.util.Map;

import org.springframework.boot.bootstrap.ConfigurableBootstrapContext;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.boot.bootstrap.BootstrapRegistry.InstanceSupplier;
import org.springframework.boot.context.properties.bind.Binder;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.annotation.MergedAnnotations.SearchStrategy;
import org.springframework.core.env.PropertySource;
import org.springframework.test.context.BootstrapWith;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

import dev.zkspring.client.ZkConnectionDetails;
import dev.zkspring.test.AutoConfigureZooKeeper.Replace;

/**
 * Points a Spring Boot test context at the kit's ZooKeeper before Boot reads its configuration files,
 * so both the config initializer and {@code spring.config.import=zk:} see it; turns snapshots off; and
 * gives the import its {@link KitConnectionDetails} (which seed the documents) in Boot's bootstrap registry.
 * Acts only on applications the Spring TestContext framework starts ({@code @SpringBootTest} and
 * the slices: Boot's test loader makes the test class, annotated {@code @BootstrapWith}, the main
 * class), and on applications a test starts itself while a {@link ServeStartedApplications} class runs;
 * any other application is left alone. Registered in {@code META-INF/spring.factories}.
 */
class ZkTestRunListener implements SpringApplicationRunListener, Ordered {

	/** The property source the kit adds, above every other. */
	static final String PROPERTY_SOURCE_NAME = "zkTest";

	private final SpringApplication application;

	ZkTestRunListener(SpringApplication application, String[] args) {
		this.application = application;
	}

	/** Before Boot's own listener, which loads the configuration files and imports. */
	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	/** The kit's own connect string (ANY), or {@code null} to use the configured one (NONE). */
	static @Nullable String kitConnect(ConfigurableEnvironment environment) {
		PropertySource<?> kit = environment.getPropertySources().get(PROPERTY_SOURCE_NAME);
		return (kit != null) ? (String) kit.getProperty("zk.connect") : null;
	}

	/** Started by the TestContext framework: Boot's test loader makes the test class the main class. */
	private static boolean isSpringTest(@Nullable Class<?> testClass) {
		return testClass != null
				&& MergedAnnotations.from(testClass, SearchStrategy.TYPE_HIERARCHY).isPresent(BootstrapWith.class);
	}

	@Override
	public void environmentPrepared(ConfigurableBootstrapContext bootstrapContext, ConfigurableEnvironment environment) {
		if (!environment.getProperty("zk.enabled", Boolean.class, true)) {
			return;
		}
		Class<?> testClass = this.application.getMainApplicationClass();
		if (isSpringTest(testClass)) {
			ZkTestSettings settings = ZkTestSettings.of(testClass);
			serve(bootstrapContext, environment, settings,
					(settings.replace() == Replace.ANY) ? SharedZooKeeper.newChroot() : null);
			return;
		}
		StartedApplications.Served served = StartedApplications.current();
		if (served != null) {
			ZkTestSettings settings = served.settingsForNextStart();
			serve(bootstrapContext, environment, settings, served.connect());
			// what the TestContext framework's customizer does for a test context (ZkTestContextCustomizerFactory)
			this.application.addInitializers(new DetailsInitializer(settings));
		}
	}

	/** Points the application at {@code connect} (the kit's chroot, or the configured one when null). */
	private void serve(ConfigurableBootstrapContext bootstrapContext, ConfigurableEnvironment environment,
			ZkTestSettings settings, @Nullable String connect) {
		Map<String, Object> properties = new LinkedHashMap<>();
		// never read a developer's leftover snapshot, never leave one behind
		properties.put("zk.config.snapshot-enabled", "false");
		if (connect != null) {
			properties.put("zk.connect", connect);
			properties.put("zk.embedded.enabled", "false");
			properties.put("zk.ssl.enabled", "false");
			properties.put("zk.leader.takeover-delay", "0s");
		}
		environment.getPropertySources().addFirst(new MapPropertySource(PROPERTY_SOURCE_NAME, properties));
		// for spring.config.import=zk:, which reads before any bean exists; Boot's Binder sees the files read so far
		ClassLoader classLoader = this.application.getClassLoader();
		InstanceSupplier<ZkConnectionDetails> details = (context) -> new KitConnectionDetails(settings,
				() -> context.get(Binder.class), () -> kitConnect(environment), classLoader);
		bootstrapContext.registerIfAbsent(ZkConnectionDetails.class, details);
	}

	@Override
	public void contextPrepared(ConfigurableApplicationContext context) {
		SharedZooKeeper.announceOnce();
	}

	/** Registers the kit's connection details before the config center's initializer reads them. */
	private record DetailsInitializer(ZkTestSettings settings)
			implements ApplicationContextInitializer<ConfigurableApplicationContext>, Ordered {

		@Override
		public void initialize(ConfigurableApplicationContext context) {
			KitConnectionDetails.registerFallback(context, this.settings);
		}

		@Override
		public int getOrder() {
			return Ordered.HIGHEST_PRECEDENCE;
		}

	}

}
