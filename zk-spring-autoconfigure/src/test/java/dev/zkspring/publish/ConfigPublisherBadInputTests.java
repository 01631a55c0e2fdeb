package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Bad documents and names are refused with one line naming the context and the fault; nothing is written. */
class ConfigPublisherBadInputTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server().cleaning("/config", "/config.meta");

	private ConfigPublisher publisher;

	@BeforeEach
	void setUp() throws Exception {
		this.publisher = new ConfigPublisher(app.writer(), "/config");
		this.publisher.put("orders", bytes("{\"limit\":5}"), Change.by("alice", null));
	}

	@Test
	void malformedJsonIsRefusedWithItsPosition() throws Exception {
		refused("orders", bytes("{\"limit\":"), "context 'orders': malformed JSON at line 1");
	}

	@Test
	void anEmptyDocumentIsRefused() throws Exception {
		refused("orders", bytes("  \n"), "context 'orders': the document is empty");
	}

	@Test
	void aNonObjectRootIsRefused() throws Exception {
		refused("orders", bytes("[1,2]"), "the document's root is an array, not a JSON object");
	}

	@Test
	void invalidUtf8IsRefused() throws Exception {
		refused("orders", new byte[] { '{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}' },
				"not valid UTF-8");
	}

	@Test
	void aDocumentOverTheSizeLimitIsRefused() throws Exception {
		byte[] big = new byte[2 * 1024 * 1024];
		Arrays.fill(big, (byte) ' ');
		big[0] = '{';
		big[big.length - 1] = '}';
		refused("orders", big, "over the limit of 1048576 bytes");
	}

	@Test
	void aKeyDefinedTwiceIsRefusedNamingIt() throws Exception {
		refused("orders", bytes("{\"a\":{\"b\":1},\"a.b\":2}"), "the key 'a.b' is defined twice");
	}

	@Test
	void contextNamesThatWalkTheTreeAreRefused() throws Exception {
		refused("team/orders", bytes("{}"), "context 'team/orders' is not a valid context name: it contains '/'");
		refused("..", bytes("{}"), "'.' and '..' are not context names");
		refused("ord\u0007ers", bytes("{}"), "context 'ord?ers' is not a valid context name: it contains a control");
		refused("", bytes("{}"), "it is empty");
	}

	private void refused(String context, byte[] document, String message) throws Exception {
		var before = PublishTestSupport.tree(app.writer());
		assertThatExceptionOfType(PublishException.class)
			.isThrownBy(() -> this.publisher.put(context, document, Change.by("bob", null)))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(PublishException.Reason.INVALID))
			.satisfies((ex) -> assertThat(ex.getMessage()).doesNotContain("\n"))
			.withMessageContaining(message);
		assertThat(PublishTestSupport.tree(app.writer())).isEqualTo(before);
		assertThat(new String(app.writer().getData().forPath("/config/orders"), StandardCharsets.UTF_8))
			.isEqualTo("{\"limit\":5}");
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
