package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.config.ConfigCanary;
import dev.zkspring.config.ConfigLayout;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** The canary writes' compare-and-set: a concurrent change between read and write writes nothing. */
class ConfigCanariesRaceTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final String NODE = ConfigLayout.canaryNode("/config", "orders");

	private CuratorFramework client;

	private ConfigCanaries canaries;

	@BeforeEach
	void setUp() throws Exception {
		this.client = zk.newClient();
		new ConfigPublisher(this.client, "/config").put("orders", bytes("{\"a\":1}"), Change.by("t", null));
		this.canaries = new ConfigCanaries(this.client, "/config");
	}

	@AfterEach
	void cleanUp() throws Exception {
		PublishTestSupport.deleteAll(this.client);
	}

	@Test
	void aCanaryStartedMeanwhileMakesTheStartAConflictAndNothingIsWritten() throws Exception {
		byte[] theirs = new ConfigCanary(7, List.of("other"), 0, 0, "x", null, "{\"a\":3}").toJson();
		this.canaries.beforeWrite = () -> write(theirs);
		List<String> before = PublishTestSupport.tree(this.client);
		assertThatExceptionOfType(PublishException.class)
			.isThrownBy(() -> this.canaries.start("orders", bytes("{\"a\":2}"), List.of("node-1"), Change.by("t", null),
					false))
			.satisfies((ex) -> assertThat(ex.reason()).isEqualTo(PublishException.Reason.CONFLICT))
			.withMessageContaining(NODE);
		assertThat(this.client.getData().forPath(NODE)).isEqualTo(theirs);
		assertThat(new ConfigPublisher(this.client, "/config").history("orders")).hasSize(1);
		assertThat(PublishTestSupport.tree(this.client)).containsAll(before);
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
		assertThat(this.client.getData().forPath(NODE)).isEqualTo(theirs);
		assertThat(new String(this.client.getData().forPath("/config/orders"), StandardCharsets.UTF_8))
			.isEqualTo("{\"a\":1}");
		assertThat(new ConfigPublisher(this.client, "/config").history("orders")).hasSize(2);
	}

	private void write(byte[] data) {
		try {
			this.client.setData().forPath(NODE, data);
		}
		catch (Exception ex) {
			try {
				this.client.create().creatingParentsIfNeeded().forPath(NODE, data);
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
