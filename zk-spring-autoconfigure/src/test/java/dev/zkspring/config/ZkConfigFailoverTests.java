package dev.zkspring.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.zkspring.config.ConfigTestSupport.EventRecorder;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A 3-node ensemble that loses a server (its leader) keeps delivering configuration changes, also those
 * made while the instance was cut off.
 */
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

	@Test
	void aChangeMadeWhileCutOffAndAServerIsDeadIsAppliedOnTheRemainingTwo() throws Exception {
		CuratorFramework writer = zk.newClient();
		write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"v1\"}}");
		// the instance reaches each server through a proxy of its own, so it can be cut off from all three
		List<CuttableProxy> proxies = new ArrayList<>();
		for (String server : zk.connectString().split(",")) {
			proxies.add(CuttableProxy.to(server));
		}
		String connect = String.join(",", proxies.stream().map(CuttableProxy::connectString).toList());
		try {
			// Curator's ensemble tracker would replace the proxies with the servers' own addresses from
			// /zookeeper/config, and the client would reconnect around the cut (it did, in full CI runs)
			ConfigTestSupport.runner(zk, this.snapshots)
				.withPropertyValues("zk.connect=" + connect, "zk.connection-timeout=2s", "zk.session-timeout=30s",
						"zk.ensemble-tracker=false")
				.run((context) -> {
					CuratorFramework client = context.getBean(CuratorFramework.class);
					// one change applied first: the reload at readiness is over and cannot bring the later one
					write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"settled\"}}");
					await().atMost(Duration.ofSeconds(15))
						.until(() -> "settled".equals(context.getEnvironment().getProperty("shop.greeting")));
					long session = client.getZookeeperClient().getZooKeeper().getSessionId();
					assertThat(client.getZookeeperClient().getCurrentConnectionString()).as("still through the proxies")
						.isEqualTo(connect);
					proxies.forEach(CuttableProxy::cut);
					awaitCutOff(client);
					InstanceSpec dead = zk.killLeader();
					await().atMost(Duration.ofSeconds(30)).ignoreExceptions().untilAsserted(
							() -> write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"while-cut-off\"}}"));
					proxies.forEach(CuttableProxy::heal);
					await().atMost(Duration.ofSeconds(30))
						.until(() -> "while-cut-off".equals(context.getEnvironment().getProperty("shop.greeting")));
					assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).as("the same session")
						.isEqualTo(session);
					write(writer, "/config/orders", "{\"shop\":{\"greeting\":\"after\"}}");
					await().atMost(Duration.ofSeconds(15))
						.until(() -> "after".equals(context.getEnvironment().getProperty("shop.greeting")));
					zk.restart(dead);
				});
		}
		finally {
			proxies.forEach(CuttableProxy::close);
		}
	}

	/**
	 * Waits for the client's connection itself to be gone (the handle's state, which the I/O thread sets),
	 * not for Curator's view of it, which only moves when the event thread delivers the disconnection. If it
	 * does not go, the stacks of the client's threads say what held it (this wait once timed out in a full CI
	 * run and never alone).
	 */
	private static void awaitCutOff(CuratorFramework client) {
		try {
			await().atMost(Duration.ofSeconds(15))
				.until(() -> !client.getZookeeperClient().getZooKeeper().getState().isConnected());
		}
		catch (ConditionTimeoutException ex) {
			Thread.getAllStackTraces().forEach((thread, stack) -> {
				if (thread.getName().contains("SendThread") || thread.getName().contains("EventThread")
						|| thread.getName().startsWith("proxy")) {
					System.err.println(thread + Arrays.stream(stack).map((frame) -> "\n\tat " + frame)
						.reduce("", String::concat));
				}
			});
			throw ex;
		}
	}

}
