package dev.zkspring.fleet;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;

import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.test.MemberApp;
import dev.zkspring.test.ServerRequests;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a configuration change costs one instance when the fleet is large, counted by the server (its
 * JMX bean of the instance's connection): the instance publishes its own node and reads its own
 * contexts, and never the other instances' nodes, so the cost has no term in the fleet's size.
 */
class FleetScaleTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture
		.server(MemberApp.runner(ZkLeaderAutoConfiguration.class, ZkLockAutoConfiguration.class))
		.cleaning("/config", "/fleet")
		.with((runner) -> runner.withBean(Shop.class)
			.withPropertyValues("zk.leader.id=node-1", "zk.session-timeout=10s", "zk.leader.enabled=true"));

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String ZNODE = "/config/orders";

	private static final int OTHERS = 300;

	@BeforeEach
	void setUp() throws Exception {
		write("{\"shop\":{\"limit\":5}}");
	}

	@Test
	void aConfigChangeCostsAnInstanceFarFewerRequestsThanTheFleetHasNodes() {
		app.runner().run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			ZkFleet fleet = context.getBean(ZkFleet.class);
			await().atMost(WAIT).until(() -> applied(own(client)) == 0);
			for (int i = 0; i < OTHERS; i++) {
				app.writer().create().withMode(CreateMode.EPHEMERAL).forPath("/fleet/orders/other-" + i,
						("{\"id\":\"other-" + i + "\",\"leader\":false,\"config\":[],\"locks\":[],\"recent\":[]}")
							.getBytes(StandardCharsets.UTF_8));
			}
			long before = ServerRequests.packetsReceived(client);
			write("{\"shop\":{\"limit\":6}}");
			await().atMost(WAIT).until(() -> applied(own(client)) == 1);
			long requests = ServerRequests.packetsReceived(client) - before;
			// reading the other nodes would cost at least one request each
			assertThat(requests).as("requests of the instance's session for one change").isLessThan(30);
			assertThat(fleet.instances()).hasSize(OTHERS + 1);
		});
	}

	@Test
	void aConfigChangeWritesTheInstancesFleetNodeOnceNotOncePerEventItCauses() {
		app.runner().run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			await().atMost(WAIT).until(() -> applied(own(client)) == 0);
			int before = settledVersion();
			write("{\"shop\":{\"limit\":6}}");
			await().atMost(WAIT).until(() -> applied(own(client)) == 1);
			// the node's watch, the change event and the refresh event all ask for a write within milliseconds
			assertThat(settledVersion() - before).as("fleet node writes for one change").isLessThanOrEqualTo(2);
		});
	}

	/** The fleet node's version once it has not changed for a second. */
	private int settledVersion() {
		int[] version = { -1 };
		await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).during(Duration.ofSeconds(1)).until(() -> {
			int now = app.writer().checkExists().forPath("/fleet/orders/node-1").getVersion();
			boolean same = now == version[0];
			version[0] = now;
			return same;
		});
		return version[0];
	}

	@SuppressWarnings("unchecked")
	private int applied(Map<String, Object> node) {
		List<Map<String, Object>> config = (List<Map<String, Object>>) node.get("config");
		return (config == null || config.isEmpty()) ? -1 : ((Number) config.get(0).get("appliedVersion")).intValue();
	}

	private Map<String, Object> own(CuratorFramework client) throws Exception {
		byte[] data = app.writer().getData().forPath("/fleet/orders/node-1");
		return tools.jackson.databind.json.JsonMapper.builder().build().readValue(data, Map.class);
	}

	private void write(String json) throws Exception {
		app.write(ZNODE, json);
	}

	@RefreshScope
	static class Shop {

		@Value("${shop.limit}")
		int limit;

	}

}
