package dev.zkspring.test;

import java.util.List;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;


/**
 * Makes a test class's {@link ZkTestSettings} part of its context's cache key (test classes with other
 * documents or another {@link AutoConfigureZooKeeper} get another context), and gives every such context
 * its {@link KitConnectionDetails} (which the config center's early client resolves, seeding the
 * documents first) and its {@link ZkTestConfig} bean. Registered in {@code META-INF/spring.factories};
 * the ZooKeeper itself is chosen earlier, by {@link ZkTestRunListener}.
 */
class ZkTestContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		return new Customizer(ZkTestSettings.of(testClass));
	}

	/** The settings are the key: records compare by value. */
	private record Customizer(ZkTestSettings settings) implements ContextCustomizer {

		@Override
		public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration mergedConfig) {
			// above the test's own properties, which Boot's test loader adds after the kit's
			MutablePropertySources sources = context.getEnvironment().getPropertySources();
			PropertySource<?> kit = sources.remove(ZkTestRunListener.PROPERTY_SOURCE_NAME);
			if (kit != null) {
				sources.addFirst(kit);
			}
			KitConnectionDetails.registerFallback(context, this.settings);
			ZkTestConfig testConfig = new ZkTestConfig(context);
			context.getBeanFactory().registerSingleton(ZkTestConfig.BEAN_NAME, testConfig);
			context.addApplicationListener(testConfig.rejections());
		}

	}

}
