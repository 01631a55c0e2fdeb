package dev.zkspring.config;

import java.nio.file.Path;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.origin.OriginLookup;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.PropertySource;

import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;

/** Loading at startup: flattening, binding, precedence, missing nodes, namespace, the SPI. */
class ZkConfigLoadingIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path snapshots;

	private CuratorFramework client;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() throws Exception {
		this.client = zk.newClient();
		this.runner = ConfigTestSupport.runner(zk, this.snapshots);
	}

	@AfterEach
	void cleanUp() throws Exception {
		ConfigTestSupport.deleteAll(this.client, "/config");
		ConfigTestSupport.deleteAll(this.client, "/team");
		ConfigTestSupport.deleteAll(this.client, TestPropertySourceLocator.ZNODE);
	}

	@Test
	void freshAppResolvesGreetingFromItsZnodeAndTheCommandLineStillWins() throws Exception {
		write(this.client, "/config/orders", "{\"shop\":{\"greeting\":\"hi\"}}");
		try (ConfigurableApplicationContext context = ConfigTestSupport.run(zk.connectProperty().replace("zk", "--zk"),
				"--zk.config.snapshot-dir=" + this.snapshots)) {
			assertThat(context.getEnvironment().resolvePlaceholders("${shop.greeting}")).isEqualTo("hi");
		}
		try (ConfigurableApplicationContext context = ConfigTestSupport.run("--" + zk.connectProperty(),
				"--zk.config.snapshot-dir=" + this.snapshots, "--shop.greeting=cli")) {
			assertThat(context.getEnvironment().resolvePlaceholders("${shop.greeting}")).isEqualTo("cli");
		}
	}

	@Test
	void zooKeeperWinsOverThePackagedApplicationYmlButNotOverSystemProperties() throws Exception {
		write(this.client, "/config/orders", "{\"shop\":{\"greeting\":\"from-zk\",\"sysprop\":\"from-zk\"}}");
		System.setProperty("shop.sysprop", "from-system");
		try (ConfigurableApplicationContext context = ConfigTestSupport.run("--" + zk.connectProperty(),
				"--zk.config.snapshot-dir=" + this.snapshots)) {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("from-zk");
			assertThat(context.getEnvironment().getProperty("shop.packaged-only")).isEqualTo("from-yml");
			assertThat(context.getEnvironment().getProperty("shop.sysprop")).isEqualTo("from-system");
		}
		finally {
			System.clearProperty("shop.sysprop");
		}
	}

	@Test
	void nestedObjectsAndArraysBindToConfigurationPropertiesWithAListAndANestedObject() throws Exception {
		write(this.client, "/config/orders",
				"{\"shop\":{\"items\":[\"tea\",\"cake\"],\"owner\":{\"name\":\"ann\",\"age\":42},\"greeting\":null}}");
		this.runner.run((context) -> {
			ShopProperties shop = context.getBean(ShopProperties.class);
			assertThat(shop.getItems()).containsExactly("tea", "cake");
			assertThat(shop.getOwner().getName()).isEqualTo("ann");
			assertThat(shop.getOwner().getAge()).isEqualTo(42);
			assertThat(shop.getGreeting()).isEqualTo("default");
		});
	}

	@Test
	void theAppContextWinsOverTheSharedApplicationContext() throws Exception {
		write(this.client, "/config/application", "{\"shop\":{\"greeting\":\"shared\",\"owner\":{\"name\":\"shared\"}}}");
		write(this.client, "/config/orders", "{\"shop\":{\"greeting\":\"orders\"}}");
		write(this.client, "/config/billing", "{\"shop\":{\"greeting\":\"billing\"}}");
		this.runner.run((context) -> {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("orders");
			assertThat(context.getEnvironment().getProperty("shop.owner.name")).isEqualTo("shared");
		});
	}

	@Test
	void aProfileContextWinsOverThePlainOneAndTheLastActiveProfileWins() throws Exception {
		write(this.client, "/config/application", "{\"a\":\"application\",\"b\":\"application\",\"c\":\"application\"}");
		write(this.client, "/config/application,eu", "{\"a\":\"application,eu\",\"b\":\"application,eu\"}");
		write(this.client, "/config/orders", "{\"a\":\"orders\",\"b\":\"orders\",\"d\":\"orders\"}");
		write(this.client, "/config/orders,eu", "{\"a\":\"orders,eu\",\"e\":\"orders,eu\"}");
		write(this.client, "/config/orders,prod", "{\"a\":\"orders,prod\"}");
		this.runner.withPropertyValues("spring.profiles.active=eu,prod").run((context) -> {
			assertThat(context.getEnvironment().getProperty("a")).isEqualTo("orders,prod");
			assertThat(context.getEnvironment().getProperty("e")).isEqualTo("orders,eu");
			assertThat(context.getEnvironment().getProperty("b")).isEqualTo("orders");
			assertThat(context.getEnvironment().getProperty("c")).isEqualTo("application");
		});
		this.runner.withPropertyValues("spring.profiles.active=eu").run((context) -> {
			assertThat(context.getEnvironment().getProperty("a")).isEqualTo("orders,eu");
			assertThat(context.getEnvironment().getProperty("b")).isEqualTo("orders");
		});
	}

	@Test
	void theSeparatorTheRootAndTheContextNamesAreConfigurable() throws Exception {
		write(this.client, "/settings/common", "{\"a\":\"common\",\"b\":\"common\"}");
		write(this.client, "/settings/shop-service-eu", "{\"a\":\"shop-service-eu\"}");
		this.runner
			.withPropertyValues("zk.config.root=/settings/", "zk.config.default-context=common",
					"zk.config.name=shop-service", "zk.config.profile-separator=-", "spring.profiles.active=eu")
			.run((context) -> {
				assertThat(context.getEnvironment().getProperty("a")).isEqualTo("shop-service-eu");
				assertThat(context.getEnvironment().getProperty("b")).isEqualTo("common");
			});
		ConfigTestSupport.deleteAll(this.client, "/settings");
	}

	@Test
	void missingNodesAreEmptyContextsNotErrors() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getEnvironment().getPropertySources().get(ZkConfigInitializer.PROPERTY_SOURCE_NAME))
				.isNotNull();
			assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("default");
			assertThat(context.getBean(ZkConfigStatus.class).isDegraded()).isFalse();
		});
	}

	@Test
	void contextNodesLiveInsideTheNamespace() throws Exception {
		write(this.client, "/team/config/orders", "{\"shop\":{\"greeting\":\"namespaced\"}}");
		write(this.client, "/config/orders", "{\"shop\":{\"greeting\":\"outside\"}}");
		this.runner.withPropertyValues("zk.namespace=team")
			.run((context) -> assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("namespaced"));
	}

	@Test
	void contextNodesLiveInsideTheChrootOfTheConnectString() throws Exception {
		write(this.client, "/team/config/orders", "{\"shop\":{\"greeting\":\"chrooted\"}}");
		this.runner.withPropertyValues("zk.connect=" + zk.connectString() + "/team")
			.run((context) -> assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("chrooted"));
	}

	@Test
	void everyKeyReportsTheZnodeAndTheVersionItCameFrom() throws Exception {
		write(this.client, "/config/orders", "{\"shop\":{\"greeting\":\"v0\"}}");
		write(this.client, "/config/orders", "{\"shop\":{\"greeting\":\"v1\"}}");
		write(this.client, "/config/application", "{\"shop\":{\"items\":[\"x\"]}}");
		this.runner.run((context) -> {
			PropertySource<?> source = context.getEnvironment()
				.getPropertySources()
				.get(ZkConfigInitializer.PROPERTY_SOURCE_NAME);
			assertThat(OriginLookup.getOrigin(source, "shop.greeting")).hasToString(
					"znode /config/orders (version 1), key 'shop.greeting'");
			assertThat(OriginLookup.getOrigin(source, "shop.items[0]")).hasToString(
					"znode /config/application (version 0), key 'shop.items[0]'");
		});
	}

	@Test
	void aLocatorRegisteredInSpringFactoriesContributesItsSourcesInOrder() throws Exception {
		write(this.client, "/config/orders", "{\"shop\":{\"greeting\":\"json\",\"items\":[\"json\"]}}");
		write(this.client, TestPropertySourceLocator.ZNODE, "from-my-locator");
		this.runner.withPropertyValues("test.locator.enabled=true").run((context) -> {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("from-my-locator");
			assertThat(context.getEnvironment().getProperty("shop.items[0]")).isEqualTo("json");
		});
	}

}
