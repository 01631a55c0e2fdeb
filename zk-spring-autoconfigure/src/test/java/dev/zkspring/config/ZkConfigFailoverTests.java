package dev.zkspring.config;

import java.nio.file.Path;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.zkspring.config.ConfigTestSupport.EventRecorder;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A 3-node ensemble that loses its leader keeps delivering configuration changes. */
class ZkConfigFailoverTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.ensemble();

	@TempDir
	Path snapshots;

	@Test
	void changesKeepArrivingAfterTheEnsembleLosesItsLeader() throws Exception {
		CuratorFramework writer = zk.newClient();
		write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"v1\"}}");
		ConfigTestSupport.runner(zk, this.snapshots)
			.withPropertyValues("zk.connection-timeout=5s", "zk.session-timeout=20s")
			.withBean(EventRecorder.class, EventRecorder::new)
			.run((context) -> {
				assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("v1");
				write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"v2\"}}");
				await().atMost(Duration.ofSeconds(15))
					.until(() -> "v2".equals(context.getEnvironment().getProperty("shop.greeting")));
				InstanceSpec leader = zk.killLeader();
				// the writer retries until the two remaining servers have elected a new leader
				await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(
						() -> write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"after-failover\"}}"));
				await().atMost(Duration.ofSeconds(30))
					.until(() -> "after-failover".equals(context.getEnvironment().getProperty("shop.greeting")));
				assertThat(zk.leader()).isNotEqualTo(leader);
				EventRecorder events = context.getBean(EventRecorder.class);
				assertThat(events.changes).last()
					.satisfies((event) -> assertThat(event.getChanges()).singleElement()
						.satisfies((change) -> assertThat(change.newValue()).isEqualTo("after-failover")));
				zk.restart(leader);
			});
	}

}
