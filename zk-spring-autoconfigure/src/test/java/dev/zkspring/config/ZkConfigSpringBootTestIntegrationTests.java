package dev.zkspring.config;

import java.nio.file.Path;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import dev.zkspring.config.ConfigTestSupport.ShopConfiguration;
import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/** A {@code @SpringBootTest} that points zk.connect at its server with {@code @DynamicPropertySource}. */
@SpringBootTest(classes = ShopConfiguration.class, properties = "spring.application.name=orders")
@DirtiesContext
class ZkConfigSpringBootTestIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	static Path snapshots;

	@Autowired
	ShopProperties shop;

	@DynamicPropertySource
	static void zooKeeper(DynamicPropertyRegistry registry) {
		registry.add("zk.connect", zk::connectString);
		registry.add("zk.config.snapshot-dir", () -> snapshots.toString());
	}

	@BeforeAll
	static void seed() throws Exception {
		try (CuratorFramework client = CuratorFrameworkFactory.newClient(zk.connectString(), new RetryOneTime(100))) {
			client.start();
			ConfigTestSupport.write(client, "/config/orders", "{\"shop\":{\"greeting\":\"from-zk\"}}");
		}
	}

	@Test
	void theInitializerSeesZkConnectFromADynamicPropertySource() {
		assertThat(this.shop.getGreeting()).isEqualTo("from-zk");
	}

}
