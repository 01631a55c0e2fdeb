package dev.zkspring.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code zk.ensemble-tracker}: on (Curator's default) the client swaps the proxies it was given for the
 * servers' own addresses from {@code /zookeeper/config}; off, the application's one client (the config
 * center's) keeps the proxies.
 */
class EnsembleTrackerTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.ensemble();

	@TempDir
	Path snapshots;

	private final List<CuttableProxy> proxies = new ArrayList<>();

	@AfterEach
	void closeProxies() {
		this.proxies.forEach(CuttableProxy::close);
	}

	@Test
	void onByDefaultTheClientMovesToTheServersOwnAddressesAndOffItKeepsTheProxies() throws Exception {
		String connect = proxied();
		ConfigTestSupport.runner(zk, this.snapshots)
			.withPropertyValues("zk.connect=" + connect, "zk.ensemble-tracker=false")
			.run((untracked) -> ConfigTestSupport.runner(zk, this.snapshots.resolve("tracked"))
				.withPropertyValues("zk.connect=" + connect)
				.run((tracked) -> {
					CuratorFramework trackedClient = tracked.getBean(CuratorFramework.class);
					CuratorFramework untrackedClient = untracked.getBean(CuratorFramework.class);
					// both read /zookeeper/config when they connect, the untracked one first: once the tracked
					// one has moved, the other would have too
					await().atMost(Duration.ofSeconds(15))
						.until(() -> !connect.equals(trackedClient.getZookeeperClient().getCurrentConnectionString()));
					assertThat(untrackedClient.getZookeeperClient().getCurrentConnectionString()).isEqualTo(connect);
					await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2))
						.until(() -> connect.equals(untrackedClient.getZookeeperClient().getCurrentConnectionString()));
				}));
	}

	private String proxied() throws Exception {
		for (String server : zk.connectString().split(",")) {
			this.proxies.add(CuttableProxy.to(server));
		}
		return String.join(",", this.proxies.stream().map(CuttableProxy::connectString).toList());
	}

}
