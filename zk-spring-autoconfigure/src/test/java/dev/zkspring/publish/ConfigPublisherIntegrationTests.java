package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.config.ConfigLayout;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Publishing through the API against a real server: the document and its revision, CAS, history, rollback. */
class ConfigPublisherIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server().cleaning("/config", "/config.meta");

	private ConfigPublisher publisher;

	@BeforeEach
	void setUp() throws Exception {
		this.publisher = new ConfigPublisher(app.writer(), "/config");
	}

	@Test
	void aPutWritesTheDocumentAndItsRevisionWithAuthorMessageAndKeys() throws Exception {
		Publication first = this.publisher.put("orders", json("{\"shop\":{\"limit\":5}}"), Change.by("alice", "start"));
		Publication second = this.publisher.put("orders", json("{\"shop\":{\"limit\":7,\"name\":\"x\"}}"),
				Change.by("bob", "raise the limit"));
		assertThat(first.revision()).isEqualTo(1);
		assertThat(first.version()).isZero();
		assertThat(second.revision()).isEqualTo(2);
		assertThat(second.version()).isEqualTo(1);
		assertThat(second.diff()).isEqualTo(new KeyDiff(List.of("shop.name"), List.of(), List.of("shop.limit")));
		assertThat(text(app.writer().getData().forPath("/config/orders"))).isEqualTo("{\"shop\":{\"limit\":7,\"name\":\"x\"}}");
		Revision head = HistoryCodec.read("head", app.writer().getData().forPath(ConfigLayout.historyNode("/config", "orders")));
		assertThat(head.revision()).isEqualTo(2);
		assertThat(head.version()).isEqualTo(1);
		assertThat(head.author()).isEqualTo("bob");
		assertThat(this.publisher.history("orders")).extracting(Revision::revision, Revision::author, Revision::message)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(2L, "bob", "raise the limit"),
					org.assertj.core.groups.Tuple.tuple(1L, "alice", "start"));
		assertThat(this.publisher.history("orders").get(0).document()).isEqualTo("{\"shop\":{\"limit\":7,\"name\":\"x\"}}");
		assertThat(second).asString().doesNotContain("\"x\"").doesNotContain("7,");
	}

	@Test
	void aRollbackPublishesTheEarlierDocumentAsANewRevision() throws Exception {
		this.publisher.put("orders", json("{\"limit\":5}"), Change.by("alice", null));
		this.publisher.put("orders", json("{\"limit\":9}"), Change.by("alice", null));
		Publication rolledBack = this.publisher.rollback("orders", 1, Change.by("carol", null));
		assertThat(rolledBack.revision()).isEqualTo(3);
		assertThat(text(app.writer().getData().forPath("/config/orders"))).isEqualTo("{\"limit\":5}");
		Revision newest = this.publisher.history("orders").get(0);
		assertThat(newest.kind()).isEqualTo("rollback");
		assertThat(newest.message()).isEqualTo("rollback to revision 1");
		assertThat(newest.author()).isEqualTo("carol");
		assertThat(this.publisher.history("orders")).hasSize(3);
	}

	@Test
	void aPutExpectingAnotherVersionIsRefusedAndWritesNothing() throws Exception {
		this.publisher.put("orders", json("{\"limit\":5}"), Change.by("alice", null));
		assertThatExceptionOfType(PublishException.class)
			.isThrownBy(() -> this.publisher.put("orders", json("{\"limit\":6}"), Change.by("bob", null).expecting(3)))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(PublishException.Reason.CONFLICT))
			.withMessageContaining("'orders' is at version 0, not 3");
		assertThat(text(app.writer().getData().forPath("/config/orders"))).isEqualTo("{\"limit\":5}");
		assertThat(this.publisher.history("orders")).hasSize(1);
	}

	@Test
	void aWriteOutsideTheToolIsRecordedAsARevisionWithUnknownAuthor() throws Exception {
		this.publisher.put("orders", json("{\"limit\":5}"), Change.by("alice", null));
		app.writer().setData().forPath("/config/orders", json("{\"limit\":6,\"extra\":1}"));
		List<Revision> history = this.publisher.history("orders");
		assertThat(history).extracting(Revision::revision, Revision::author, Revision::version)
			.containsExactly(org.assertj.core.groups.Tuple.tuple(2L, ConfigPublisher.UNKNOWN_AUTHOR, 1),
					org.assertj.core.groups.Tuple.tuple(1L, "alice", 0));
		assertThat(history.get(0).keys()).isEqualTo(new KeyDiff(List.of("extra"), List.of(), List.of("limit")));
		assertThat(history.get(0).message()).isEqualTo(HistoryStore.OUTSIDE_MESSAGE);
		// another outside write, then a put: the put records it first, in the same transaction
		app.writer().setData().forPath("/config/orders", json("{\"limit\":7}"));
		Publication put = this.publisher.put("orders", json("{\"limit\":8}"), Change.by("bob", null));
		assertThat(put.revision()).isEqualTo(4);
		assertThat(this.publisher.history("orders")).extracting(Revision::author)
			.containsExactly("bob", ConfigPublisher.UNKNOWN_AUTHOR, ConfigPublisher.UNKNOWN_AUTHOR, "alice");
		assertThat(this.publisher.revision("orders", 3).document()).isEqualTo("{\"limit\":7}");
	}

	@Test
	void aDocumentThatExistedBeforeTheToolBecomesItsFirstRevision() throws Exception {
		app.writer().create().creatingParentsIfNeeded().forPath("/config/orders", json("{\"limit\":1}"));
		this.publisher.put("orders", json("{\"limit\":2}"), Change.by("alice", null));
		assertThat(this.publisher.history("orders")).extracting(Revision::author, Revision::document)
			.containsExactly(org.assertj.core.groups.Tuple.tuple("alice", "{\"limit\":2}"),
					org.assertj.core.groups.Tuple.tuple(ConfigPublisher.UNKNOWN_AUTHOR, "{\"limit\":1}"));
	}

	@Test
	void historyKeepsTheNewestRevisionsOnly() throws Exception {
		for (int i = 1; i <= 5; i++) {
			this.publisher.put("orders", json("{\"n\":" + i + "}"), Change.by("alice", null).keeping(3));
		}
		assertThat(this.publisher.history("orders")).extracting(Revision::revision).containsExactly(5L, 4L, 3L);
		assertThat(app.writer().getChildren().forPath(ConfigLayout.historyNode("/config", "orders"))).hasSize(3);
		assertThatExceptionOfType(PublishException.class).isThrownBy(() -> this.publisher.rollback("orders", 1,
				Change.by("alice", null)))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(PublishException.Reason.NOT_FOUND))
			.withMessageContaining("no revision 1 (revisions 3 to 5 are kept)");
	}

	@Test
	void aDryRunAndAnUnchangedDocumentWriteNothing() throws Exception {
		Publication dry = this.publisher.put("orders", json("{\"limit\":5}"), Change.by("alice", null).dryRun(true));
		assertThat(dry.written()).isFalse();
		assertThat(dry.diff().added()).containsExactly("limit");
		assertThat(app.writer().checkExists().forPath("/config/orders")).isNull();
		this.publisher.put("orders", json("{\"limit\":5}"), Change.by("alice", null));
		assertThat(this.publisher.put("orders", json("{\"limit\":5}"), Change.by("alice", null)).written()).isFalse();
		assertThat(this.publisher.history("orders")).hasSize(1);
	}

	@Test
	void diffBetweenRevisionsNamesTheKeys() throws Exception {
		this.publisher.put("orders", json("{\"a\":1,\"b\":2}"), Change.by("alice", null));
		this.publisher.put("orders", json("{\"a\":1,\"b\":3,\"c\":4}"), Change.by("alice", null));
		assertThat(this.publisher.diff("orders", 1, 2).diff())
			.isEqualTo(new KeyDiff(List.of("c"), List.of(), List.of("b")));
		assertThat(this.publisher.diff("orders", json("{\"a\":1}")).diff())
			.isEqualTo(new KeyDiff(List.of(), List.of("b", "c"), List.of()));
	}

	static byte[] json(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static String text(byte[] data) {
		return new String(data, StandardCharsets.UTF_8);
	}

}
