package dev.zkspring.fleet;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.env.StandardEnvironment;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Nodes a stranger writes under the fleet path (issues 25.4 and 29.7): each is listed as unreadable by
 * its name, or by its name with only the fields it may hold; the instance itself always shows and the
 * view stays small.
 */
class FleetStrangerNodesTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final String ROOT = "/fleet/orders";

	private CuratorFramework stranger;

	private ZkFleet fleet;

	@BeforeEach
	void setUp() throws Exception {
		this.stranger = zk.newClient();
		this.fleet = new ZkFleet(zk.newClient(), ROOT, () -> "node-1", new StandardEnvironment(), List.of(), List.of(),
				null);
		this.fleet.start();
		await().atMost(Duration.ofSeconds(10)).until(() -> this.stranger.checkExists().forPath(ROOT + "/node-1") != null);
	}

	@AfterEach
	void cleanUp() throws Exception {
		this.fleet.stop();
		if (this.stranger.checkExists().forPath("/fleet") != null) {
			this.stranger.delete().deletingChildrenIfNeeded().forPath("/fleet");
		}
	}

	@Test
	void aNodeWithoutDataIsListedAsUnreadable() throws Exception {
		this.stranger.create().withMode(CreateMode.EPHEMERAL).forPath(ROOT + "/empty", null);
		assertThat(this.fleet.instances()).extracting((instance) -> instance.get("id")).containsExactly("empty", "node-1");
		assertThat(entry("empty")).containsKey("unreadable").doesNotContainKey("leader");
	}

	@Test
	void aNodeHoldingJsonNullIsListedAsUnreadable() throws Exception {
		plant("null-json", "null");
		assertThat(this.fleet.instances()).extracting((instance) -> instance.get("id")).containsExactly("node-1", "null-json");
		assertThat(entry("null-json")).containsKey("unreadable");
	}

	@Test
	void aHeldLockWithoutSinceMakesTheNodeUnreadable() throws Exception {
		plant("half", "{\"leader\":false,\"locks\":[{\"key\":\"k\",\"mode\":\"EXCLUSIVE\"}]}");
		assertThat(entry("half")).containsKey("unreadable").doesNotContainKey("locks");
		assertThat(entry("node-1")).doesNotContainKey("unreadable");
	}

	@Test
	void fieldsOfTheWrongTypeMakeTheNodeUnreadable() throws Exception {
		plant("a", "{\"leader\":\"yes\"}");
		plant("b", "{\"config\":[{\"znode\":\"/config/x\",\"appliedVersion\":1,\"latestVersion\":1,\"status\":\"<b>\"}]}");
		plant("c", "{\"recent\":[{\"kind\":\"lock\",\"label\":\"k\",\"start\":\"soon\",\"end\":1}]}");
		plant("d", "[1,2]");
		assertThat(entry("a")).containsKey("unreadable");
		assertThat(entry("b")).containsKey("unreadable");
		assertThat(entry("c")).containsKey("unreadable");
		assertThat(entry("d")).containsKey("unreadable");
	}

	@Test
	void theIdIsTheNodesNameNotWhatItsDataSays() throws Exception {
		plant("stranger", "{\"id\":\"node-1\",\"leader\":true,\"epoch\":99}");
		List<Map<String, Object>> instances = this.fleet.instances();
		assertThat(instances).extracting((instance) -> instance.get("id")).containsExactly("node-1", "stranger");
		assertThat(entry("node-1")).containsEntry("leader", false);
	}

	@Test
	void aPersistentNodeIsNoInstancesNode() throws Exception {
		this.stranger.create().forPath(ROOT + "/planted", "{\"leader\":true}".getBytes(StandardCharsets.UTF_8));
		assertThat(entry("planted")).containsKey("unreadable").doesNotContainKey("leader");
	}

	@Test
	void aNodeTheInstanceMayNotReadIsListedAsUnreadable() throws Exception {
		this.stranger.create().withMode(CreateMode.EPHEMERAL)
			.withACL(List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", "someone:aGFzaA=="))))
			.forPath(ROOT + "/locked", "{}".getBytes(StandardCharsets.UTF_8));
		assertThat(entry("locked")).containsKey("unreadable");
		assertThat(entry("node-1")).doesNotContainKey("unreadable");
		// deleting needs no right on the node itself, but listing its children (as the clean-up does) would
		this.stranger.delete().forPath(ROOT + "/locked");
	}

	@Test
	void oneNodeOverTheBoundIsListedByNameOnly() throws Exception {
		plant("large", "{\"leader\":false,\"configSource\":\"" + "x".repeat(40_000) + "\"}");
		assertThat(entry("large")).containsKey("unreadable").doesNotContainKey("configSource");
		assertThat(entry("node-1")).doesNotContainKey("unreadable");
	}

	@Test
	void largeNodesAreListedByNameAndTheViewStaysSmall() throws Exception {
		String padding = "x".repeat(1_000_000);
		for (int i = 0; i < 20; i++) {
			plant("big-" + i, "{\"leader\":false,\"pad\":\"" + padding + "\"}");
		}
		List<Map<String, Object>> instances = this.fleet.instances();
		assertThat(JsonMapper.builder().build().writeValueAsBytes(instances).length).isLessThan(64 * 1024);
		assertThat(instances).hasSize(21);
		assertThat(entry("big-7")).containsKey("unreadable");
		assertThat(entry("node-1")).doesNotContainKey("unreadable");
	}

	@Test
	void manyNodesNearTheBoundKeepTheViewWithinItsLimitAndThisInstanceShows() throws Exception {
		String padding = "x".repeat(FleetLimits.MAX_NODE_BYTES - 100);
		for (int i = 0; i < 60; i++) {
			plant("a-" + i, "{\"leader\":false,\"configSource\":\"" + padding + "\"}");
		}
		List<Map<String, Object>> instances = this.fleet.instances();
		assertThat(JsonMapper.builder().build().writeValueAsBytes(instances).length)
			.isLessThan(FleetLimits.MAX_VIEW_BYTES + 64 * 1024);
		assertThat(entry("node-1")).doesNotContainKey("unreadable");
		assertThat(instances).filteredOn((instance) -> instance.containsKey("unreadable")).isNotEmpty();
	}

	private void plant(String name, String json) throws Exception {
		this.stranger.create().withMode(CreateMode.EPHEMERAL).forPath(ROOT + "/" + name, json.getBytes(StandardCharsets.UTF_8));
	}

	private Map<String, Object> entry(String id) {
		List<Map<String, Object>> matching = this.fleet.instances().stream().filter((instance) -> id.equals(instance.get("id"))).toList();
		assertThat(matching).as("entries with id " + id).hasSize(1);
		return matching.get(0);
	}

}
