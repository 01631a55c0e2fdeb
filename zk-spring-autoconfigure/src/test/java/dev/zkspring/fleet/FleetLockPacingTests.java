package dev.zkspring.fleet;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lock calls rewrite the fleet node at a pace, not once per call: each write is a request on the same
 * session and server as the locks' own, so one per call would queue ahead of them (issue 14). The state
 * after a burst is still published.
 */
class FleetLockPacingTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String NODE = "/fleet/orders/node-1";

	private CuratorFramework reader;

	@BeforeEach
	void setUp() throws Exception {
		this.reader = zk.newClient();
	}

	@AfterEach
	void cleanUp() throws Exception {
		if (this.reader.checkExists().forPath("/fleet") != null) {
			this.reader.delete().deletingChildrenIfNeeded().forPath("/fleet");
		}
	}

	@Test
	void aBurstOfLockCallsCostsAFewFleetWritesAndTheLastStateIsPublished() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkFleetAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty(), "spring.application.name=orders", "zk.leader.id=node-1",
					"zk.config.enabled=false")
			.run((context) -> {
				await().atMost(WAIT).until(() -> this.reader.checkExists().forPath(NODE) != null);
				ZkLockTemplate locks = context.getBean(ZkLockTemplate.class);
				int before = version();
				long start = System.nanoTime();
				for (int i = 0; i < 300; i++) {
					locks.execute("order-7", WAIT, () -> null);
				}
				long burstEnded = System.currentTimeMillis();
				// written after the burst: nothing held, the holds in the timeline
				await().atMost(WAIT).untilAsserted(() -> assertThat(updated()).isGreaterThanOrEqualTo(burstEnded));
				assertThat(document()).contains("\"locks\":[]").contains("\"kind\":\"lock\"");
				long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
				// one write per 250 ms of lock calls, plus the unsettled-document rechecks (every 500 ms) and slack
				long bound = 3 + elapsedMillis / 250 + elapsedMillis / 500;
				assertThat(version() - before).as("fleet writes for 300 lock calls in %d ms", elapsedMillis)
					.isBetween(1, (int) bound);
			});
	}

	private int version() throws Exception {
		Stat stat = this.reader.checkExists().forPath(NODE);
		return (stat != null) ? stat.getVersion() : 0;
	}

	private long updated() throws Exception {
		Matcher matcher = Pattern.compile("\"updated\":(\\d+)").matcher(document());
		return matcher.find() ? Long.parseLong(matcher.group(1)) : 0;
	}

	private String document() throws Exception {
		return new String(this.reader.getData().forPath(NODE), StandardCharsets.UTF_8);
	}

}
