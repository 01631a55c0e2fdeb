package dev.zkspring.refresh;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.test.ZkAppFixture;
import dev.zkspring.test.ZooKeeperExtension;

/**
 * What the refresh scope's tests share: an application started as SpringApplication would (the
 * application conversion service, placeholder resolution, a packaged {@code zk-refresh-tests.yml}
 * below the config center's source), writing znodes, and recording events.
 */
final class RefreshTestSupport {

	static final Duration WAIT = Duration.ofSeconds(10);

	static final String ZNODE = "/config/orders";

	private RefreshTestSupport() {
	}

	static ApplicationContextRunner runner(ZooKeeperExtension zk, Path snapshots) {
		return new ApplicationContextRunner().withInitializer(RefreshTestSupport::packagedConfiguration)
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
					ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class))
			.withUserConfiguration(EnableProperties.class)
			.withBean(EventRecorder.class, EventRecorder::new)
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + snapshots,
					"spring.application.name=orders");
	}

	/** What SpringApplication does: Boot's conversion service, and application.yml as the lowest source. */
	private static void packagedConfiguration(ConfigurableApplicationContext context) {
		context.getBeanFactory().setConversionService(ApplicationConversionService.getSharedInstance());
		try {
			List<PropertySource<?>> yaml = new YamlPropertySourceLoader().load("zk-refresh-tests.yml",
					new ClassPathResource("zk-refresh-tests.yml"));
			yaml.forEach(context.getEnvironment().getPropertySources()::addLast);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static void write(CuratorFramework client, String path, String json) throws Exception {
		ZkAppFixture.write(client, path, json.replace('\'', '"').getBytes(StandardCharsets.UTF_8));
	}

	@EnableConfigurationProperties
	static class EnableProperties {

	}

	/** Records the config center's and the refresh scope's events, in the order they arrive. */
	static class EventRecorder implements ApplicationListener<ApplicationEvent> {

		final List<ApplicationEvent> all = new CopyOnWriteArrayList<>();

		final List<ZkRefreshedEvent> refreshes = new CopyOnWriteArrayList<>();

		final List<ZkConfigRejectedEvent> rejections = new CopyOnWriteArrayList<>();

		final List<ZkConfigChangedEvent> changes = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			if (event instanceof ZkRefreshedEvent refreshed) {
				this.refreshes.add(refreshed);
				this.all.add(event);
			}
			else if (event instanceof ZkConfigRejectedEvent rejected) {
				this.rejections.add(rejected);
				this.all.add(event);
			}
			else if (event instanceof ZkConfigChangedEvent changed) {
				this.changes.add(changed);
				this.all.add(event);
			}
		}

	}

}
