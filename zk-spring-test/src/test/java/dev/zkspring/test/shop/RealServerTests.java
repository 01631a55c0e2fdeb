package dev.zkspring.test.shop;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.zkspring.config.PlantStaleSnapshot;
import dev.zkspring.test.AutoConfigureZooKeeper;
import dev.zkspring.test.AutoConfigureZooKeeper.Replace;
import dev.zkspring.test.ZkConfig;
import dev.zkspring.test.ZkTestConfig;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code Replace.NONE}: the configured zk.connect (here a TestingServer of the test's own) is kept. */
@SpringBootTest
@AutoConfigureZooKeeper(replace = Replace.NONE)
@ZkConfig(context = "shop", json = "{\"shop\":{\"greeting\":\"from-the-real-server\"}}")
class RealServerTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@DynamicPropertySource
	static void zooKeeper(DynamicPropertyRegistry registry) {
		registry.add("zk.connect", zk::connectString);
	}

	@Autowired
	private ApplicationContext context;

	@Autowired
	private CuratorFramework client;

	@Autowired
	private Greeter greeter;

	@Autowired
	private ZkTestConfig zkConfig;

	@Test
	void theApplicationUsesTheConfiguredServerWithTheSeededDocument() throws Exception {
		assertThat(this.client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(zk.connectString());
		assertThat(this.greeter.greeting()).isEqualTo("from-the-real-server");
		CuratorFramework own = zk.newClient();
		assertThat(new String(own.getData().forPath("/config/shop"))).contains("from-the-real-server");
		assertThat(this.zkConfig.put("shop", "{\"shop\":{\"greeting\":\"changed-on-the-real-server\"}}").applied())
			.isTrue();
		assertThat(this.greeter.greeting()).isEqualTo("changed-on-the-real-server");
		assertThat(PlantStaleSnapshot.snapshotDirectory()).containsExactly(PlantStaleSnapshot.file());
	}

	@Test
	void theContextStartedWithinAFewSeconds() {
		assertThat(StartupTimes.of(this.context)).isLessThan(StartupTimes.BOUND);
	}

}
