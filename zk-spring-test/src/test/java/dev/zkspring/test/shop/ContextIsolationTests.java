package dev.zkspring.test.shop;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestContextManager;

import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each test context gets a clean ZooKeeper of its own (a chroot on the shared server): documents seeded
 * or put by one test class never reach another's context. The documents are part of the cache key:
 * the same documents share a cached context, other documents get another one. The test classes are
 * driven through Spring's own TestContextManager, so its context cache decides.
 */
class ContextIsolationTests {

	@Test
	void contextsOfOtherTestClassesDoNotLeakAndTheDocumentsAreInTheCacheKey() throws Exception {
		Orders orders = prepare(new Orders());
		assertThat(orders.zkConfig.put("shop", "{\"shop\":{\"greeting\":\"put-by-orders\",\"orders-only\":\"x\"}}")
			.applied()).isTrue();

		Billing billing = prepare(new Billing());
		assertThat(billing.context).isNotSameAs(orders.context);
		assertThat(billing.context.getEnvironment().getProperty("shop.orders-only")).isNull();
		assertThat(billing.context.getEnvironment().getProperty("shop.greeting")).isEqualTo("seeded-by-billing");
		assertThat(billing.zkConfig.get("application")).isEmpty();
		assertThat(billing.zkConfig.put("shop", "{\"shop\":{\"greeting\":\"put-by-billing\"}}").applied()).isTrue();

		OrdersAgain again = prepare(new OrdersAgain());
		assertThat(again.context).isSameAs(orders.context);
		assertThat(again.context.getEnvironment().getProperty("shop.greeting")).isEqualTo("put-by-orders");
		assertThat(orders.zkConfig.get("application")).contains("{\"shop\":{\"currency\":\"CHF\"}}");
		assertThat(StartupTimes.of(orders.context)).isLessThan(StartupTimes.BOUND);
		assertThat(StartupTimes.of(billing.context)).isLessThan(StartupTimes.BOUND);
	}

	private static <T> T prepare(T test) throws Exception {
		new TestContextManager(test.getClass()).prepareTestInstance(test);
		return test;
	}

	@SpringBootTest
	@ZkConfig(context = "application", json = "{\"shop\":{\"currency\":\"CHF\"}}")
	static class Orders {

		@Autowired
		ApplicationContext context;

		@Autowired
		ZkTestConfig zkConfig;

	}

	@SpringBootTest
	@ZkConfig(context = "application", json = "{\"shop\":{\"currency\":\"CHF\"}}")
	static class OrdersAgain extends Orders {

	}

	@SpringBootTest
	@ZkConfig(context = "shop", json = "{\"shop\":{\"greeting\":\"seeded-by-billing\"}}")
	static class Billing {

		@Autowired
		ApplicationContext context;

		@Autowired
		ZkTestConfig zkConfig;

	}

}
