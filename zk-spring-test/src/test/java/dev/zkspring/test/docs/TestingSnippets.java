package dev.zkspring.test.docs;

// tag::imports[]
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.test.ServeStartedApplications;
import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
// end::imports[]

/**
 * The snippets of docs/testing.md, compiled with this module's tests (the docs check in
 * zk-spring-autoconfigure compares them with the page). Inner classes: surefire does not run them;
 * ShopApplicationTests runs the same kit for real.
 */
class TestingSnippets {

	interface Limits {

		int getMax();

	}

	// tag::orders-tests[]
	@SpringBootTest
	@ZkConfig(context = "orders", json = "{\"limits\":{\"max\":5}}")        // written before the context starts
	@ZkConfig(context = "application", location = "classpath:zk/application.json")
	class OrdersTests {

		@Autowired ZkTestConfig zkConfig;
		@Autowired Limits limits;                                            // a @RefreshScope bean

		@Test
		void maxFollowsZooKeeper() throws Exception {
			assertThat(zkConfig.put("orders", "{\"limits\":{\"max\":7}}").applied()).isTrue();
			assertThat(limits.getMax()).isEqualTo(7);
		}
	}
	// end::orders-tests[]

	static class OrdersApplication {
	}

	// tag::started-applications[]
	@ServeStartedApplications                                               // the kit serves SpringApplication.run too
	@ZkConfig(context = "orders", json = "{\"limits\":{\"max\":5}}")
	class OrdersSmokeTests {

		@Test
		void startsAsInProduction() {
			try (ConfigurableApplicationContext context = SpringApplication.run(OrdersApplication.class)) {
				assertThat(context.getEnvironment().getProperty("limits.max")).isEqualTo("5");
			}
		}
	}
	// end::started-applications[]

	class FaultTests {

		// tag::extension[]
		@RegisterExtension
		static final ZooKeeperExtension zk = ZooKeeperExtension.server();   // or .ensemble() for 3 nodes

		// zk.connectString(), zk.newClient(), zk.stopServer() / restartServer(),
		// ZooKeeperExtension.expireSession(client), zk.killLeader()
		// end::extension[]

	}

}
