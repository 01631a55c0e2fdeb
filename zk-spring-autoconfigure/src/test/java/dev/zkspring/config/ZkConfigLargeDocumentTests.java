package dev.zkspring.config;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.test.ServerRequests;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Documents near ZooKeeper's 1 MB limit: several of them never come back in one reply over the
 * client's packet limit (jute.maxbuffer), at startup or while running, and one that alone is too
 * large for the client's limit is refused naming its znode instead of breaking the connection.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigLargeDocumentTests {

	private static final String SHARED = "/config/application";

	private static final String OWN = "/config/orders";

	private static final Duration WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner)
		.cleaning("/config")
		.clearing("jute.maxbuffer");

	@Test
	void twoContextsOf600KilobytesAreLoadedAtStartupAndAppliedWhileRunning() throws Exception {
		write(app.writer(), SHARED, document("shared", "s1", 600_000));
		write(app.writer(), OWN, document("greeting", "g1", 600_000));
		app.runner().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getEnvironment().getProperty("shop.shared")).isEqualTo("s1");
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("g1");
			List<ConnectionState> states = new CopyOnWriteArrayList<>();
			context.getBean(CuratorFramework.class).getConnectionStateListenable()
				.addListener((client, state) -> states.add(state));
			write(app.writer(), SHARED, document("shared", "s2", 600_000));
			write(app.writer(), OWN, document("greeting", "g2", 600_000));
			await().atMost(WAIT).until(() -> "g2".equals(context.getEnvironment().getProperty("shop.greeting"))
					&& "s2".equals(context.getEnvironment().getProperty("shop.shared")));
			assertThat(states).as("the connection was never lost to an oversized reply").isEmpty();
		});
	}

	@Test
	void manySmallerContextsTogetherOverThePacketLimitAreLoaded() throws Exception {
		write(app.writer(), SHARED, document("shared", "s1", 400_000));
		write(app.writer(), SHARED + ",eu", document("region", "r1", 400_000));
		write(app.writer(), OWN, document("greeting", "g1", 400_000));
		write(app.writer(), OWN + ",eu", document("local", "l1", 400_000));
		app.runner().withPropertyValues("spring.profiles.active=eu").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getEnvironment().getProperty("shop.shared")).isEqualTo("s1");
			assertThat(context.getEnvironment().getProperty("shop.region")).isEqualTo("r1");
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("g1");
			assertThat(context.getEnvironment().getProperty("shop.local")).isEqualTo("l1");
		});
	}

	@Test
	void aDocumentTooLargeForTheClientsPacketLimitFailsAFailFastStartupNamingIt() throws Exception {
		write(app.writer(), OWN, document("greeting", "g1", 310_000));
		System.setProperty("jute.maxbuffer", "300000");
		app.runner().run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure != null && !(failure instanceof ZkStartupException)) {
				failure = failure.getCause();
			}
			assertThat(failure).isNotNull();
			assertThat(((ZkStartupException) failure).getDescription()).contains("znode " + OWN)
				.contains("too large to be read within the client's packet limit (jute.maxbuffer, 300000 bytes)");
		});
	}

	@Test
	void aDocumentTooLargeForTheClientsPacketLimitIsSkippedAloneWithoutFailFast(CapturedOutput output)
			throws Exception {
		write(app.writer(), SHARED, document("shared", "s1", 1_000));
		write(app.writer(), OWN, document("greeting", "g1", 310_000));
		System.setProperty("jute.maxbuffer", "300000");
		app.runner().withPropertyValues("zk.config.fail-fast=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getEnvironment().getProperty("shop.shared")).isEqualTo("s1");
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isNull();
			assertThat(output).contains("The configuration in znode " + OWN).contains("jute.maxbuffer");
			assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().isConnected()).isTrue();
		});
	}

	@Test
	void whileADocumentIsTooLargeAChangeToAnotherCostsOneRequestAndItsShrinkingIsApplied() throws Exception {
		write(app.writer(), SHARED, document("shared", "s1", 1_000));
		write(app.writer(), OWN, document("greeting", "g1", 310_000));
		System.setProperty("jute.maxbuffer", "300000");
		app.runner().withPropertyValues("zk.config.fail-fast=false").run((context) -> {
			assertThat(context).hasNotFailed();
			CuratorFramework client = context.getBean(CuratorFramework.class);
			change(context, "s2");
			long fewest = ServerRequests.fewest(client, List.of("s3", "s4", "s5"), (shared) -> change(context, shared));
			assertThat(fewest).as("requests for one change of another context while " + OWN + " is too large")
				.isEqualTo(1);
			// its own change is the one that can make it readable: read the careful way, and applied
			write(app.writer(), OWN, document("greeting", "g2", 1_000));
			await().atMost(WAIT).until(() -> "g2".equals(context.getEnvironment().getProperty("shop.greeting")));
		});
	}

	private void change(ConfigurableApplicationContext context, String shared) throws Exception {
		write(app.writer(), SHARED, document("shared", shared, 1_000));
		await().atMost(WAIT).pollInterval(Duration.ofMillis(2))
			.until(() -> shared.equals(context.getEnvironment().getProperty("shop.shared")));
	}

	@Test
	void aTransactionBetweenTwoBatchesIsNeverSeenHalf() throws Exception {
		write(app.writer(), SHARED, document("shared", "1", 300_000));
		write(app.writer(), OWN, document("greeting", "1", 300_000));
		boolean[] written = new boolean[1];
		ContextReader.afterBatch = () -> {
			if (!written[0]) {
				written[0] = true;
				try {
					app.writer().transaction()
						.forOperations(app.writer().transactionOp().setData().forPath(SHARED, utf8(document("shared", "2", 300_000))),
								app.writer().transactionOp().setData().forPath(OWN, utf8(document("greeting", "2", 300_000))));
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			}
		};
		try {
			List<ContextReader.Read> reads = new ContextReader(app.writer()).read(List.of(OWN, SHARED));
			assertThat(written[0]).as("read in two batches").isTrue();
			assertThat(reads).extracting((read) -> read.requireStat().getVersion()).containsExactly(1, 1);
		}
		finally {
			ContextReader.afterBatch = () -> {
			};
		}
	}

	@Test
	void batchesKeepEachReplyWithinHalfTheLimitAndReadALargeDocumentAlone() {
		List<Stat> sizes = java.util.Arrays.asList(stat(100), stat(200_000), stat(200_000), stat(600_000), stat(10), null);
		assertThat(ContextReader.batches(sizes, 1_048_575)).containsExactly(List.of(0, 1, 2), List.of(3),
				List.of(4, 5));
	}

	private static byte[] utf8(String text) {
		return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

	private static Stat stat(int length) {
		Stat stat = new Stat();
		stat.setDataLength(length);
		return stat;
	}

	/** A document of about the given size: one key of interest and padding. */
	private static String document(String key, String value, int size) {
		return "{\"shop\":{\"" + key + "\":\"" + value + "\"},\"padding\":{\"" + key + "\":\"" + "x".repeat(size)
				+ "\"}}";
	}

}
