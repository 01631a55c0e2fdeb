package com.example.orders;

import org.apache.zookeeper.Version;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest
@ZkConfig(context = "orders", json = "{\"orders\":{\"greeting\":\"hi from the kit\"}}")
class OrdersApplicationTests {

	@Autowired
	ZkTestConfig zkConfig;

	@Autowired
	OrdersApplication.Greeter greeter;

	@Autowired
	OrdersApplication.Stock stock;

	@Test
	void greetingFollowsZooKeeper() throws Exception {
		assertThat(this.greeter.greeting()).isEqualTo("hi from the kit");
		assertThat(this.zkConfig.put("orders", "{\"orders\":{\"greeting\":\"changed\"}}").applied()).isTrue();
		assertThat(this.greeter.greeting()).isEqualTo("changed");
	}

	@Test
	void lockedMethodRuns() {
		int before = this.stock.deducted();
		this.stock.deduct("pear");
		assertThat(this.stock.deducted()).isEqualTo(before + 1);
	}

	@Test
	void zooKeeperClientIsTheBomsVersion() {
		assertThat(Version.getFullVersion()).startsWith(System.getProperty("expected.zookeeper.version") + "-");
	}

}
