package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A transaction sent again after it was applied (what Curator's retry does when the connection drops
 * between the commit and its reply) meets its own write: reported as done, not as a conflict.
 */
class HistoryStoreRetryTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server().cleaning("/config", "/config.meta");

	@Test
	void theSameTransactionSentTwiceIsRecognisedAsOursAndAnotherIsAConflict() throws Exception {
		CuratorFramework client = app.zk().newClient();
		HistoryStore store = new HistoryStore(client, "/config", 1024 * 1024,
				Clock.fixed(Instant.parse("2026-11-25T20:00:00Z"), ZoneOffset.UTC));
		ContextState state = store.read("orders");
		byte[] document = "{\"limit\":1}".getBytes(StandardCharsets.UTF_8);
		KeyDiff diff = new KeyDiff(List.of("limit"), List.of(), List.of());
		Change change = Change.by("alice", null);
		Revision first = store.publish(state, document, diff, change, "put", () -> {
		});
		Revision again = store.publish(state, document, diff, change, "put", () -> {
		});
		assertThat(again).isEqualTo(first);
		assertThat(store.read("orders").kept()).containsExactly(1L);
		assertThatExceptionOfType(PublishException.class)
			.isThrownBy(() -> store.publish(state, "{\"limit\":2}".getBytes(StandardCharsets.UTF_8), diff, change, "put",
					() -> {
					}))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(PublishException.Reason.CONFLICT));
	}

}
