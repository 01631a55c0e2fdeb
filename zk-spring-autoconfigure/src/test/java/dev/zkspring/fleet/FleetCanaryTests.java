package dev.zkspring.fleet;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.config.ConfigCanary;
import dev.zkspring.config.ConfigLayout;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a tool reads of a canary from the fleet: each live instance's own report, and PENDING for a member
 * that has not reported the canary's current revision. Fleet nodes written here as instances write them.
 */
class FleetCanaryTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server().cleaning("/fleet", "/config.meta");

	private static final String FLEET = "/fleet/orders";

	private static final String ORDERS = "/config/orders";

	/** The digest of the candidate the canary nodes written here hold. */
	private static final String DIGEST = new ConfigCanary(1, List.of(), 0, 0, null, null, "{}").digest();

	@Test
	void withoutACanaryNodeNoInstanceIsListed() throws Exception {
		instance("node-1", null);
		assertThat(FleetCanary.read(app.writer(), FLEET, ORDERS)).isEmpty();
	}

	@Test
	void aMemberThatHasNotReportedTheCurrentRevisionIsPendingAndTheOthersHaveNoStatus() throws Exception {
		canary(2, List.of("node-1", "node-2", "node-3"));
		instance("node-1", "{\"znode\":\"/config.meta/canary/orders\",\"revision\":2,\"member\":true,"
				+ "\"runsCandidate\":true,\"status\":\"CURRENT\",\"digest\":\"" + DIGEST + "\"}");
		instance("node-2", "{\"znode\":\"/config.meta/canary/orders\",\"revision\":1,\"member\":true,"
				+ "\"runsCandidate\":true,\"status\":\"CURRENT\"}");
		instance("node-3", null);
		instance("node-4", "{\"znode\":\"/config.meta/canary/orders\",\"revision\":2,\"member\":false,"
				+ "\"runsCandidate\":false}");
		assertThat(FleetCanary.read(app.writer(), FLEET, ORDERS)).containsExactly(
				new FleetCanary("node-1", true, true, 2L, FleetCanary.CURRENT, null),
				new FleetCanary("node-2", true, true, 1L, FleetCanary.PENDING, null),
				new FleetCanary("node-3", true, false, null, FleetCanary.PENDING, null),
				new FleetCanary("node-4", false, false, 2L, null, null));
	}

	@Test
	void aRefusalIsReadWithItsReason() throws Exception {
		canary(3, List.of("node-1"));
		instance("node-1", "{\"znode\":\"/config.meta/canary/orders\",\"revision\":3,\"member\":true,"
				+ "\"runsCandidate\":false,\"status\":\"REFUSED\",\"reason\":\"cannot convert (key 'shop.limit')\"}");
		assertThat(FleetCanary.read(app.writer(), FLEET, ORDERS))
			.containsExactly(new FleetCanary("node-1", true, false, 3L, FleetCanary.REFUSED, "cannot convert (key 'shop.limit')"));
	}

	@Test
	void aMemberCurrentOnOtherContentUnderTheSameRevisionIsPending() throws Exception {
		canary(2, List.of("node-1", "node-2"));
		String other = new ConfigCanary(2, List.of("node-1"), 0, 0, "test", null, "{\"a\":1}").digest();
		instance("node-1", "{\"znode\":\"/config.meta/canary/orders\",\"revision\":2,\"member\":true,"
				+ "\"runsCandidate\":true,\"status\":\"CURRENT\",\"digest\":\"" + other + "\"}");
		instance("node-2", "{\"znode\":\"/config.meta/canary/orders\",\"revision\":2,\"member\":true,"
				+ "\"runsCandidate\":true,\"status\":\"CURRENT\"}");
		assertThat(FleetCanary.read(app.writer(), FLEET, ORDERS)).containsExactly(
				new FleetCanary("node-1", true, true, 2L, FleetCanary.PENDING, null),
				new FleetCanary("node-2", true, true, 2L, FleetCanary.PENDING, null));
	}

	private void canary(long revision, List<String> instances) throws Exception {
		app.writer().create().creatingParentsIfNeeded().forPath(ConfigLayout.canaryNode("/config", "orders"),
				new ConfigCanary(revision, instances, 0, 0, "test", null, "{}").toJson());
	}

	private void instance(String id, String canary) throws Exception {
		String node = "{\"id\":\"" + id + "\",\"leader\":false,\"config\":[{\"znode\":\"" + ORDERS
				+ "\",\"appliedVersion\":0,\"latestVersion\":0,\"status\":\"CURRENT\""
				+ ((canary != null) ? ",\"canary\":" + canary : "") + "}]}";
		app.writer().create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
			.forPath(FLEET + "/" + id, node.getBytes(StandardCharsets.UTF_8));
	}

}
