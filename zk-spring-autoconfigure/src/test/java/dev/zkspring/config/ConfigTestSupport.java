package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.test.ShopOwner;
import dev.zkspring.test.ZkAppFixture;
import dev.zkspring.test.ZooKeeperExtension;

/** What the config center's tests share: writing znodes, a small application, its properties. */
final class ConfigTestSupport {

	private ConfigTestSupport() {
	}

	static ApplicationContextRunner runner(ZooKeeperExtension zk, Path snapshots) {
		return runner(zk.connectString(), snapshots);
	}

	static ApplicationContextRunner runner(String connectString, Path snapshots) {
		return new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withUserConfiguration(ShopConfiguration.class)
			.withPropertyValues("zk.connect=" + connectString, "zk.config.snapshot-dir=" + snapshots,
					"spring.application.name=orders");
	}

	/** A real application start, with {@code zk-config-tests.yml} as its packaged configuration. */
	static ConfigurableApplicationContext run(String... args) {
		SpringApplication application = new SpringApplication(ShopConfiguration.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		List<String> all = new ArrayList<>(List.of("--spring.config.name=zk-config-tests"));
		all.addAll(List.of(args));
		return application.run(all.toArray(String[]::new));
	}

	static void write(CuratorFramework client, String path, String json) throws Exception {
		write(client, path, json.getBytes(StandardCharsets.UTF_8));
	}

	static void write(CuratorFramework client, String path, byte[] data) throws Exception {
		ZkAppFixture.write(client, path, data);
	}

	static void deleteAll(CuratorFramework client, String path) throws Exception {
		ZkAppFixture.deleteAll(client, path);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(ShopProperties.class)
	@ImportAutoConfiguration(ZkAutoConfiguration.class)
	static class ShopConfiguration {

	}

	@ConfigurationProperties("shop")
	public static class ShopProperties {

		private String greeting = "default";

		private List<String> items = new ArrayList<>();

		private final ShopOwner owner = new ShopOwner();

		public String getGreeting() {
			return this.greeting;
		}

		public void setGreeting(String greeting) {
			this.greeting = greeting;
		}

		public List<String> getItems() {
			return this.items;
		}

		public void setItems(List<String> items) {
			this.items = items;
		}

		public ShopOwner getOwner() {
			return this.owner;
		}

	}

	/** Records config events, in the order they arrive. */
	static class EventRecorder implements ApplicationListener<ApplicationEvent> {

		final List<ZkConfigChangedEvent> changes = new CopyOnWriteArrayList<>();

		final List<ZkConfigRejectedEvent> rejections = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			if (event instanceof ZkConfigChangedEvent changed) {
				this.changes.add(changed);
			}
			else if (event instanceof ZkConfigRejectedEvent rejected) {
				this.rejections.add(rejected);
			}
		}

	}

}
