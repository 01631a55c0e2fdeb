package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;

/** Two publishers at the same moment, forced to interleave between read and write: exactly one wins. */
class ConfigPublisherConcurrencyTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server().cleaning("/config", "/config.meta");

	@Test
	void twoPutsThatReadTheSameVersionEndWithExactlyOneWritten() throws Exception {
		race(true);
	}

	@Test
	void twoPutsCreatingTheSameContextEndWithExactlyOneWritten() throws Exception {
		race(false);
	}

	@Test
	void aWriteOutsideTheToolBetweenReadAndWriteIsAConflictAndIsKept() throws Exception {
		CuratorFramework client = app.zk().newClient();
		ConfigPublisher alice = new ConfigPublisher(client, "/config");
		alice.put("orders", bytes("{\"limit\":1}"), Change.by("setup", null));
		alice.beforeWrite = () -> {
			try {
				client.setData().forPath("/config/orders", bytes("{\"limit\":9}"));
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		};
		try {
			alice.put("orders", bytes("{\"limit\":2}"), Change.by("alice", null));
			throw new AssertionError("the put overwrote a write made between its read and its write");
		}
		catch (PublishException ex) {
			assertThat(ex.reason()).isEqualTo(PublishException.Reason.CONFLICT);
			assertThat(ex.getMessage()).contains("context 'orders' changed while publishing");
		}
		assertThat(new String(client.getData().forPath("/config/orders"), StandardCharsets.UTF_8))
			.isEqualTo("{\"limit\":9}");
	}

	private void race(boolean existing) throws Exception {
		CuratorFramework first = app.zk().newClient();
		CuratorFramework second = app.zk().newClient();
		ConfigPublisher alice = new ConfigPublisher(first, "/config");
		ConfigPublisher bob = new ConfigPublisher(second, "/config");
		if (existing) {
			alice.put("orders", bytes("{\"limit\":1}"), Change.by("setup", null));
		}
		long revisionsBefore = existing ? 1 : 0;
		CountDownLatch aliceRead = new CountDownLatch(1);
		CountDownLatch bobWrote = new CountDownLatch(1);
		alice.beforeWrite = () -> {
			aliceRead.countDown();
			await(bobWrote);
		};
		CompletableFuture<Object> aliceOutcome = CompletableFuture.supplyAsync(() -> {
			try {
				return alice.put("orders", bytes("{\"limit\":2}"), Change.by("alice", null));
			}
			catch (Exception ex) {
				return ex;
			}
		});
		await(aliceRead);
		Publication bobs = bob.put("orders", bytes("{\"limit\":3}"), Change.by("bob", null));
		bobWrote.countDown();
		Object outcome = aliceOutcome.get(20, TimeUnit.SECONDS);
		assertThat(bobs.written()).isTrue();
		assertThat(outcome).isInstanceOfSatisfying(PublishException.class,
				(ex) -> assertThat(ex.reason()).isEqualTo(PublishException.Reason.CONFLICT));
		assertThat(new String(first.getData().forPath("/config/orders"), StandardCharsets.UTF_8))
			.isEqualTo("{\"limit\":3}");
		assertThat(alice.history("orders")).hasSize((int) revisionsBefore + 1)
			.first()
			.satisfies((newest) -> assertThat(newest.author()).isEqualTo("bob"));
	}

	private static void await(CountDownLatch latch) {
		try {
			if (!latch.await(20, TimeUnit.SECONDS)) {
				throw new IllegalStateException("latch not reached");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
