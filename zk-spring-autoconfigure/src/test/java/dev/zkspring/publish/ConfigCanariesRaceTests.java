package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.config.ConfigCanary;
import dev.zkspring.config.ConfigLayout;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The canary writes' compare-and-set: a concurrent change between read and write writes nothing. */
class ConfigCanariesRaceTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server().cleaning("/config", "/config.meta");

	private static final String NODE = ConfigLayout.canaryNode("/config", "orders");

	private ConfigCanaries canaries;

	@BeforeEach
	void setUp() throws Exception {
		new ConfigPublisher(app.writer(), "/config").put("orders", bytes("{\"a\":1}"), Change.by("t", null));
		this.canaries = new ConfigCanaries(app.writer(), "/config");
	}

	@Test
	void aCanaryStartedMeanwhileMakesTheStartAConflictAndNothingIsWritten() throws Exception {
		byte[] theirs = new ConfigCanary(7, List.of("other"), 0, 0, "x", null, "{\"a\":3}").toJson();
		this.canaries.beforeWrite = () -> write(theirs);
		List<String> before = PublishTestSupport.tree(app.writer());
		assertThatExceptionOfType(PublishException.class)
			.isThrownBy(() -> this.canaries.start("orders", bytes("{\"a\":2}"), List.of("node-1"), Change.by("t", null),
					false))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(PublishException.Reason.CONFLICT))
			.withMessageContaining(NODE);
		assertThat(app.writer().getData().forPath(NODE)).isEqualTo(theirs);
		assertThat(new ConfigPublisher(app.writer(), "/config").history("orders")).hasSize(1);
		assertThat(PublishTestSupport.tree(app.writer())).containsAll(before);
	}

	@Test
	void aReplacedCanaryChangedMeanwhileIsAConflictForReplaceAbortAndPromote() throws Exception {
		this.canaries.start("orders", bytes("{\"a\":2}"), List.of("node-1"), Change.by("t", null), false);
		byte[] theirs = new ConfigCanary(9, List.of("other"), 0, 0, "x", null, "{\"a\":3}").toJson();
		this.canaries.beforeWrite = () -> write(theirs);
		assertThatExceptionOfType(PublishException.class).isThrownBy(() -> this.canaries.start("orders",
				bytes("{\"a\":4}"), List.of("node-1"), Change.by("t", null), true));
		assertThatExceptionOfType(PublishException.class)
			.isThrownBy(() -> this.canaries.abort("orders", Change.by("t", null)));
		assertThat(app.writer().getData().forPath(NODE)).isEqualTo(theirs);
		assertThat(new String(app.writer().getData().forPath("/config/orders"), StandardCharsets.UTF_8))
			.isEqualTo("{\"a\":1}");
		assertThat(new ConfigPublisher(app.writer(), "/config").history("orders")).hasSize(2);
	}

	private void write(byte[] data) {
		try {
			app.writer().setData().forPath(NODE, data);
		}
		catch (Exception ex) {
			try {
				app.writer().create().creatingParentsIfNeeded().forPath(NODE, data);
			}
			catch (Exception again) {
				throw new IllegalStateException(again);
			}
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
