package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.config.ConfigLayout;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The ensemble's leader killed between reading and writing: the document and its revision, both or neither. */
class ConfigPublisherFailoverTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.ensemble();

	@Test
	void leaderKilledMidPublishLeavesDocumentAndRevisionBothOrNeither() throws Exception {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(zk.connectString())
			.sessionTimeoutMs(30_000)
			.connectionTimeoutMs(10_000)
			.retryPolicy(new ExponentialBackoffRetry(200, 10, 2_000))
			.build();
		client.start();
		try {
			assertThat(client.blockUntilConnected(15, TimeUnit.SECONDS)).isTrue();
			ConfigPublisher publisher = new ConfigPublisher(client, "/config");
			publisher.put("orders", bytes("{\"limit\":1}"), Change.by("alice", null));
			InstanceSpec[] killed = new InstanceSpec[1];
			publisher.beforeWrite = () -> {
				try {
					killed[0] = zk.killLeader();
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			};
			Object outcome;
			try {
				outcome = publisher.put("orders", bytes("{\"limit\":2}"), Change.by("bob", null));
			}
			catch (Exception ex) {
				outcome = ex;
			}
			publisher.beforeWrite = () -> {
			};
			await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
				.until(() -> client.checkExists().forPath("/config/orders") != null);
			Stat stat = new Stat();
			String document = new String(client.getData().storingStatIn(stat).forPath("/config/orders"),
					StandardCharsets.UTF_8);
			Revision head = HistoryCodec.read("head",
					client.getData().forPath(ConfigLayout.historyNode("/config", "orders")));
			// both or neither: the head names the node's version, and its record holds the node's document
			assertThat(head.version()).isEqualTo(stat.getVersion());
			assertThat(publisher.revision("orders", head.revision()).document()).isEqualTo(document);
			if (outcome instanceof Publication publication) {
				assertThat(publication.written()).isTrue();
				assertThat(document).isEqualTo("{\"limit\":2}");
				assertThat(head.revision()).isEqualTo(2);
			}
			else {
				assertThat(document).isEqualTo("{\"limit\":1}");
				assertThat(head.revision()).isEqualTo(1);
			}
			zk.restart(killed[0]);
		}
		finally {
			client.close();
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
