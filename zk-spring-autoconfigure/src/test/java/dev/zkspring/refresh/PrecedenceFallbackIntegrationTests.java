package dev.zkspring.refresh;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Environment variables outrank ZooKeeper at startup and after a change; a removed key falls back. */
class PrecedenceFallbackIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config")
		.with((runner) -> runner
				.withUserConfiguration(Enable.class)
				// as if SHOP_GREETING were set in the process environment
				.withInitializer((context) -> context.getEnvironment()
					.getPropertySources()
					.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
							new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
									Map.of("SHOP_GREETING", "from-env")))));

	@Test
	void anEnvironmentVariableOutranksZooKeeperAtStartupAndAfterAChange() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'greeting':'from-zk','packaged':'from-zk'}}");
		app.runner().run((context) -> {
			Shop shop = context.getBean(Shop.class);
			assertThat(shop.getGreeting()).isEqualTo("from-env");
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'greeting':'from-zk-2','packaged':'from-zk-2'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(shop.getPackaged()).isEqualTo("from-zk-2");
			assertThat(shop.getGreeting()).isEqualTo("from-env");
		});
	}

	@Test
	void aKeyRemovedFromAPropertiesPrefixFallsBackToThePackagedConfiguration() throws Exception {
		write(app.writer(), ZNODE, "{'shop':{'packaged':'from-zk'}}");
		app.runner().run((context) -> {
			Shop shop = context.getBean(Shop.class);
			assertThat(shop.getPackaged()).isEqualTo("from-zk");
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'shop':{'other':'x'}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(shop.getPackaged()).isEqualTo("from-yml");
		});
	}

	@EnableConfigurationProperties(Shop.class)
	static class Enable {

	}

	@RefreshScope
	@ConfigurationProperties("shop")
	public static class Shop {

		private String greeting = "default";

		private String packaged = "default";

		public String getGreeting() {
			return this.greeting;
		}

		public void setGreeting(String greeting) {
			this.greeting = greeting;
		}

		public String getPackaged() {
			return this.packaged;
		}

		public void setPackaged(String packaged) {
			this.packaged = packaged;
		}

	}

}
