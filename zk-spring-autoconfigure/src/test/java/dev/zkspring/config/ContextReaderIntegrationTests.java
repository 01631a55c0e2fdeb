package dev.zkspring.config;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.mock.env.MockEnvironment;

import dev.zkspring.test.ServerRequests;
import dev.zkspring.test.ZkAppFixture;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The context reads against a real server, counted by the server itself (its JMX bean of the reader's
 * connection): a reload costs one request however many contexts there are, and a document that grew
 * past the size remembered for it is read again the careful way instead of failing the load.
 */
class ContextReaderIntegrationTests {

	private static final List<String> CONTEXTS = List.of("/config/orders,eu,prod", "/config/orders,eu",
			"/config/orders", "/config/application,eu", "/config/application");

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner)
		.cleaning("/config")
		.clearing("jute.maxbuffer");

	@Test
	void aReloadOfFiveContextsIsOneRequest() throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"g1\"}}");
		write(app.writer(), "/config/application", "{\"shop\":{\"shared\":\"s1\"}}");
		write(app.writer(), "/config/application,eu", "{\"shop\":{\"region\":\"eu\"}}");
		JsonZnodePropertySourceLocator locator = new JsonZnodePropertySourceLocator();
		locator.configure(new ConfigContexts("/config", "orders", List.of("eu", "prod"), lowestFirst()), 1_000_000, "test#1");
		long first = ServerRequests.during(app.writer(), () -> locator.locate(new MockEnvironment(), app.writer()));
		// one stat per context, one listing of the canary root (which canaries run), then one multi
		assertThat(first).as("the first load stats each context and lists the canaries, then reads them in one multi")
			.isEqualTo(5 + 1 + 1);
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"g2\"}}");
		long reload = Long.MAX_VALUE;
		for (int i = 0; i < 3; i++) {
			// the fewest of three, so a ping of the session's falling into one count cannot fail the test
			reload = Math.min(reload, ServerRequests.during(app.writer(), () -> locator.locate(new MockEnvironment(), app.writer())));
		}
		assertThat(reload).as("requests per reload of 5 contexts and their canary nodes (one multi)").isEqualTo(1);
		assertThat(locator.locate(new MockEnvironment(), app.writer()))
			.anySatisfy((source) -> assertThat(source.getProperty("shop.greeting")).isEqualTo("g2"));
	}

	@Test
	void aReloadOfContextsTogetherOverThePacketLimitStaysSplitAndConsistent() throws Exception {
		for (String context : CONTEXTS.subList(1, 5)) {
			write(app.writer(), context, document("1", 400_000));
		}
		List<ConnectionState> states = new CopyOnWriteArrayList<>();
		app.writer().getConnectionStateListenable().addListener((client, state) -> states.add(state));
		java.util.Map<String, Integer> sizes = new java.util.concurrent.ConcurrentHashMap<>();
		new ContextReader(app.writer(), sizes).read(CONTEXTS);
		for (String context : CONTEXTS.subList(1, 5)) {
			write(app.writer(), context, document("2", 450_000));
		}
		List<ContextReader.Read> reads = new ContextReader(app.writer(), sizes).read(CONTEXTS);
		assertThat(reads).extracting((read) -> read.stat() != null ? read.stat().getVersion() : -1)
			.containsExactly(-1, 1, 1, 1, 1);
		assertThat(reads.get(1).data()).hasSize(450_000);
		assertThat(states).as("no reply was over the packet limit").isEmpty();
	}

	@Test
	void aDocumentThatGrewPastItsRememberedSizeIsReadAgainStatFirstAndRefusedAlone() throws Exception {
		System.setProperty("jute.maxbuffer", "300000");
		CuratorFramework reader = client();
		try {
			write(app.writer(), "/config/orders", document("1", 1_000));
			write(app.writer(), "/config/application", document("1", 1_000));
			java.util.Map<String, Integer> sizes = new java.util.concurrent.ConcurrentHashMap<>();
			List<String> contexts = List.of("/config/orders", "/config/application");
			new ContextReader(reader, sizes).read(contexts);
			write(app.writer(), "/config/orders", document("2", 310_000));
			List<ContextReader.Read> reads = new ContextReader(reader, sizes).read(contexts);
			assertThat(reads.get(0).tooLargeFor()).isEqualTo(300_000);
			assertThat(reads.get(0).requireStat().getVersion()).isEqualTo(1);
			assertThat(reads.get(1).data()).hasSize(1_000);
			assertThat(sizes).doesNotContainKey("/config/orders").containsEntry("/config/application", 1_000);
		}
		finally {
			reader.close();
		}
	}

	@Test
	void aReloadRightAfterTheSessionExpiredIsReadOnTheNewSession() throws Exception {
		CuratorFramework reader = client();
		try {
			write(app.writer(), "/config/orders", document("1", 1_000));
			java.util.Map<String, Integer> sizes = new java.util.concurrent.ConcurrentHashMap<>();
			List<String> contexts = List.of("/config/orders", "/config/application");
			new ContextReader(reader, sizes).read(contexts);
			write(app.writer(), "/config/orders", document("2", 2_000));
			ZooKeeperExtension.expireSession(reader);
			List<ContextReader.Read> reads = new ContextReader(reader, sizes).read(contexts);
			assertThat(reads.get(0).requireStat().getVersion()).isEqualTo(1);
			assertThat(reads.get(1).error()).isEqualTo(org.apache.zookeeper.KeeperException.Code.NONODE);
		}
		finally {
			reader.close();
		}
	}

	private static List<String> lowestFirst() {
		List<String> lowestFirst = new java.util.ArrayList<>(CONTEXTS);
		java.util.Collections.reverse(lowestFirst);
		return lowestFirst;
	}

	private static CuratorFramework client() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(app.zk().connectString())
			.sessionTimeoutMs(10_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		client.start();
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	private static String document(String version, int size) {
		String head = "{\"v\":\"" + version + "\",\"pad\":\"";
		return head + "x".repeat(size - head.length() - 2) + "\"}";
	}

}
