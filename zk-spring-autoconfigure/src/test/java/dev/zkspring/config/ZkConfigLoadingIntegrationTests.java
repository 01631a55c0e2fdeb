package dev.zkspring.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.origin.OriginLookup;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.PropertySource;

import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;

/** Loading at startup: flattening, binding, precedence, missing nodes, namespace, the SPI. */
class ZkConfigLoadingIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config", "/team", TestPropertySourceLocator.ZNODE, "/settings");

	@Test
	void freshAppResolvesGreetingFromItsZnodeAndTheCommandLineStillWins() throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"hi\"}}");
		try (ConfigurableApplicationContext context = ConfigTestSupport.run(app.zk().connectProperty().replace("zk", "--zk"),
				"--zk.config.snapshot-dir=" + app.snapshots())) {
			assertThat(context.getEnvironment().resolvePlaceholders("${shop.greeting}")).isEqualTo("hi");
		}
		try (ConfigurableApplicationContext context = ConfigTestSupport.run("--" + app.zk().connectProperty(),
				"--zk.config.snapshot-dir=" + app.snapshots(), "--shop.greeting=cli")) {
			assertThat(context.getEnvironment().resolvePlaceholders("${shop.greeting}")).isEqualTo("cli");
		}
	}

	@Test
	void zooKeeperWinsOverThePackagedApplicationYmlButNotOverSystemProperties() throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"from-zk\",\"sysprop\":\"from-zk\"}}");
		System.setProperty("shop.sysprop", "from-system");
		try (ConfigurableApplicationContext context = ConfigTestSupport.run("--" + app.zk().connectProperty(),
				"--zk.config.snapshot-dir=" + app.snapshots())) {
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
		write(app.writer(), "/config/orders",
				"{\"shop\":{\"items\":[\"tea\",\"cake\"],\"owner\":{\"name\":\"ann\",\"age\":42},\"greeting\":null}}");
		app.runner().run((context) -> {
			ShopProperties shop = context.getBean(ShopProperties.class);
			assertThat(shop.getItems()).containsExactly("tea", "cake");
			assertThat(shop.getOwner().getName()).isEqualTo("ann");
			assertThat(shop.getOwner().getAge()).isEqualTo(42);
			assertThat(shop.getGreeting()).isEqualTo("default");
		});
	}

	@Test
	void theAppContextWinsOverTheSharedApplicationContext() throws Exception {
		write(app.writer(), "/config/application", "{\"shop\":{\"greeting\":\"shared\",\"owner\":{\"name\":\"shared\"}}}");
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"orders\"}}");
		write(app.writer(), "/config/billing", "{\"shop\":{\"greeting\":\"billing\"}}");
		app.runner().run((context) -> {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("orders");
			assertThat(context.getEnvironment().getProperty("shop.owner.name")).isEqualTo("shared");
		});
	}

	@Test
	void aProfileContextWinsOverThePlainOneAndTheLastActiveProfileWins() throws Exception {
		write(app.writer(), "/config/application", "{\"a\":\"application\",\"b\":\"application\",\"c\":\"application\"}");
		write(app.writer(), "/config/application,eu", "{\"a\":\"application,eu\",\"b\":\"application,eu\"}");
		write(app.writer(), "/config/orders", "{\"a\":\"orders\",\"b\":\"orders\",\"d\":\"orders\"}");
		write(app.writer(), "/config/orders,eu", "{\"a\":\"orders,eu\",\"e\":\"orders,eu\"}");
		write(app.writer(), "/config/orders,prod", "{\"a\":\"orders,prod\"}");
		app.runner().withPropertyValues("spring.profiles.active=eu,prod").run((context) -> {
			assertThat(context.getEnvironment().getProperty("a")).isEqualTo("orders,prod");
			assertThat(context.getEnvironment().getProperty("e")).isEqualTo("orders,eu");
			assertThat(context.getEnvironment().getProperty("b")).isEqualTo("orders");
			assertThat(context.getEnvironment().getProperty("c")).isEqualTo("application");
		});
		app.runner().withPropertyValues("spring.profiles.active=eu").run((context) -> {
			assertThat(context.getEnvironment().getProperty("a")).isEqualTo("orders,eu");
			assertThat(context.getEnvironment().getProperty("b")).isEqualTo("orders");
		});
	}

	@Test
	void theSeparatorTheRootAndTheContextNamesAreConfigurable() throws Exception {
		write(app.writer(), "/settings/common", "{\"a\":\"common\",\"b\":\"common\"}");
		write(app.writer(), "/settings/shop-service-eu", "{\"a\":\"shop-service-eu\"}");
		app.runner()
			.withPropertyValues("zk.config.root=/settings/", "zk.config.default-context=common",
					"zk.config.name=shop-service", "zk.config.profile-separator=-", "spring.profiles.active=eu")
			.run((context) -> {
				assertThat(context.getEnvironment().getProperty("a")).isEqualTo("shop-service-eu");
				assertThat(context.getEnvironment().getProperty("b")).isEqualTo("common");
			});
	}

	@Test
	void missingNodesAreEmptyContextsNotErrors() {
		app.runner().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getEnvironment().getPropertySources().get(ZkConfigInitializer.PROPERTY_SOURCE_NAME))
				.isNotNull();
			assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("default");
			assertThat(context.getBean(ZkConfigStatus.class).isDegraded()).isFalse();
		});
	}

	@Test
	void contextNodesLiveInsideTheNamespace() throws Exception {
		write(app.writer(), "/team/config/orders", "{\"shop\":{\"greeting\":\"namespaced\"}}");
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"outside\"}}");
		app.runner().withPropertyValues("zk.namespace=team")
			.run((context) -> assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("namespaced"));
	}

	@Test
	void contextNodesLiveInsideTheChrootOfTheConnectString() throws Exception {
		write(app.writer(), "/team/config/orders", "{\"shop\":{\"greeting\":\"chrooted\"}}");
		app.runner().withPropertyValues("zk.connect=" + app.zk().connectString() + "/team")
			.run((context) -> assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("chrooted"));
	}

	@Test
	void everyKeyReportsTheZnodeAndTheVersionItCameFrom() throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"v0\"}}");
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"v1\"}}");
		write(app.writer(), "/config/application", "{\"shop\":{\"items\":[\"x\"]}}");
		app.runner().run((context) -> {
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
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"json\",\"items\":[\"json\"]}}");
		write(app.writer(), TestPropertySourceLocator.ZNODE, "from-my-locator");
		app.runner().withPropertyValues("test.locator.enabled=true").run((context) -> {
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("from-my-locator");
			assertThat(context.getEnvironment().getProperty("shop.items[0]")).isEqualTo("json");
		});
	}

}
