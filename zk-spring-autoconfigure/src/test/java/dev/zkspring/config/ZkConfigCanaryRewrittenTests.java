package dev.zkspring.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.fleet.FleetCanary;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.publish.Change;
import dev.zkspring.publish.ConfigCanaries;
import dev.zkspring.publish.PublishException;
import dev.zkspring.test.MemberApp;
import dev.zkspring.test.MemberApp.Shop;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A canary node rewritten with the same revision (deleted and created again, so even its version is the same)
 * while a member cannot see it: CURRENT means the member runs exactly the node's content, so neither the
 * tool nor the member itself takes the old candidate for the new one, and promote does not trust it.
 */
class ZkConfigCanaryRewrittenTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(MemberApp.runner())
		.cleaning(CanaryFixture.META, CanaryFixture.ROOT, "/fleet")
		.with((runner) -> runner.withBean(Shop.class));

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String ORDERS = "/config/orders";

	private static final String CANDIDATE = "{\"shop\":{\"limit\":5,\"greeting\":\"candidate\"}}";

	/** The same revision again, with a value the member cannot bind. */
	private static final String REWRITTEN = "{\"shop\":{\"limit\":\"not-a-number\",\"greeting\":\"rewritten\"}}";

	@RegisterExtension
	final ProxiedApp proxy = new ProxiedApp(app);

	@BeforeEach
	void setUp() throws Exception {
		ConfigTestSupport.write(app.writer(), ORDERS, "{\"shop\":{\"limit\":5,\"greeting\":\"base\"}}");
	}

	@Test
	void aCanaryRewrittenWithTheSameRevisionIsNotCurrentOnAMemberThatNeverRanItAndPromoteRefuses() {
		runner().run((member) -> {
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-2"), CANDIDATE);
			await().atMost(WAIT).untilAsserted(() -> assertThat(status().status()).isEqualTo(FleetCanary.CURRENT));
			assertThat(member.getBean(Shop.class).greeting).isEqualTo("candidate");
			CuratorFramework client = member.getBean(CuratorFramework.class);
			this.proxy.cutUntilDisconnected(client);
			// the same revision, at the same node version, with other content
			CanaryFixture.end(app.writer(), "orders");
			CanaryFixture.start(app.writer(), "orders", 1, List.of("node-2"), REWRITTEN);
			// the member's fleet entry still speaks of the candidate it ran: not of this content
			assertThat(status().revision()).isEqualTo(1L);
			assertThat(status().status()).isEqualTo(FleetCanary.PENDING);
			ConfigCanaries canaries = new ConfigCanaries(app.writer(), "/config");
			assertThatExceptionOfType(PublishException.class)
				.isThrownBy(() -> canaries.promote("orders", "/fleet/orders", Change.by("t", null), false))
				.withMessageContaining("node-2 PENDING");
			// back on line the member refuses the new content, keeps the old candidate and says so
			this.proxy.heal();
			await().atMost(WAIT).untilAsserted(() -> assertThat(status().status()).isEqualTo(FleetCanary.REFUSED));
			assertThat(ownReport(member)).containsEntry("status", FleetCanary.REFUSED);
			assertThat(member.getBean(Shop.class).greeting).isEqualTo("candidate");
			assertThat(app.writer().checkExists().forPath(ORDERS + "")).isNotNull();
			assertThat(new String(app.writer().getData().forPath(ORDERS))).contains("base");
		});
	}

	private FleetCanary status() throws Exception {
		return FleetCanary.read(app.writer(), "/fleet/orders", ORDERS)
			.stream()
			.filter((status) -> status.instanceId().equals("node-2"))
			.findFirst()
			.orElseThrow();
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> ownReport(AssertableApplicationContext context) {
		ZkFleet fleet = context.getBean(ZkFleet.class);
		Map<String, Object> instance = fleet.instances()
			.stream()
			.filter((i) -> i.get("id").equals(fleet.instanceId()))
			.findFirst()
			.orElseThrow();
		return (Map<String, Object>) ((List<Map<String, Object>>) instance.get("config")).stream()
			.filter((c) -> ORDERS.equals(c.get("znode")))
			.findFirst()
			.orElseThrow()
			.get("canary");
	}

	private ApplicationContextRunner runner() {
		return this.proxy.runner().withPropertyValues("zk.leader.id=node-2");
	}

}
