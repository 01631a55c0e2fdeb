package dev.zkspring.config;

import java.nio.file.Path;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ConfigTestSupport.EventRecorder;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/** Bad documents never reach the Environment: at startup, and while the application runs. */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigBadInputTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path snapshots;

	private CuratorFramework client;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() throws Exception {
		this.client = zk.newClient();
		this.runner = ConfigTestSupport.runner(zk, this.snapshots)
			.withPropertyValues("zk.config.max-document-size=" + BadDocument.MAX_SIZE)
			.withBean(EventRecorder.class, EventRecorder::new);
		write(this.client, "/config/application", "{\"shop\":{\"greeting\":\"shared\"}}");
	}

	@AfterEach
	void cleanUp() throws Exception {
		ConfigTestSupport.deleteAll(this.client, "/config");
	}

	@ParameterizedTest
	@EnumSource(BadDocument.class)
	void atStartupWithFailFastTheStartupFailsNamingTheZnodeAndTheReason(BadDocument document, CapturedOutput output)
			throws Exception {
		write(this.client, "/config/orders", document.data());
		this.runner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(ZkStartupException.class);
			ZkStartupException failure = (ZkStartupException) context.getStartupFailure();
			assertThat(failure.getDescription()).startsWith("The configuration in znode /config/orders (version 0) was rejected: ")
				.contains(document.reason)
				.doesNotContain(BadDocument.SECRET);
			assertThat(failure.getAction()).contains("Fix the document in /config/orders").contains("zk.config.fail-fast=false");
		});
		assertThat(output).doesNotContain(BadDocument.SECRET);
	}

	@ParameterizedTest
	@EnumSource(BadDocument.class)
	void atStartupWithoutFailFastTheContextIsSkippedWithOneWarning(BadDocument document, CapturedOutput output)
			throws Exception {
		write(this.client, "/config/orders", document.data());
		this.runner.withPropertyValues("zk.config.fail-fast=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("shared");
		});
		assertThat(output).containsOnlyOnce("The configuration in znode /config/orders (version 0) was rejected: ")
			.contains(document.reason)
			.contains("Starting without that context (zk.config.fail-fast=false)")
			.doesNotContain(BadDocument.SECRET);
	}

	@ParameterizedTest
	@EnumSource(BadDocument.class)
	void whileRunningTheLastGoodVersionStaysAndOneRejectionIsLoggedAndPublished(BadDocument document,
			CapturedOutput output) throws Exception {
		write(this.client, "/config/orders", "{\"shop\":{\"greeting\":\"good\"}}");
		this.runner.run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			write(this.client, "/config/orders", document.data());
			await().atMost(Duration.ofSeconds(10)).until(() -> !events.rejections.isEmpty());
			ZkConfigRejectedEvent rejection = events.rejections.get(0);
			assertThat(rejection.getZnode()).isEqualTo("/config/orders");
			assertThat(rejection.getVersion()).isEqualTo(1);
			assertThat(rejection.getReason()).contains(document.reason).doesNotContain(BadDocument.SECRET);
			assertThat(rejection.getKey()).isEqualTo(document.key);
			assertThat(rejection).asString().doesNotContain(BadDocument.SECRET);
			// a later accepted change elsewhere re-reads the bad node: it must not be rejected again
			write(this.client, "/config/application", "{\"shop\":{\"greeting\":\"shared\",\"other\":\"x\"}}");
			await().atMost(Duration.ofSeconds(10)).until(() -> "x".equals(context.getEnvironment().getProperty("shop.other")));
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("good");
			assertThat(events.rejections).hasSize(1);
			assertThat(events.changes).hasSize(1);
		});
		assertThat(output).containsOnlyOnce("Rejected the configuration in znode /config/orders (version 1): ")
			.contains(document.reason)
			.contains("its last good version (0) stays in force")
			.doesNotContain(BadDocument.SECRET);
	}

	@Test
	void aBadDocumentFixedWhileRunningIsApplied() throws Exception {
		write(this.client, "/config/orders", "{\"shop\":{\"greeting\":\"good\"}}");
		this.runner.run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			write(this.client, "/config/orders", BadDocument.MALFORMED_JSON.data());
			await().atMost(Duration.ofSeconds(10)).until(() -> !events.rejections.isEmpty());
			write(this.client, "/config/orders", "{\"shop\":{\"greeting\":\"fixed\"}}");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "fixed".equals(context.getEnvironment().getProperty("shop.greeting")));
		});
	}

	@Test
	void theFailureAnalyzerShowsARejectedDocumentAtStartup(CapturedOutput output) throws Exception {
		write(this.client, "/config/orders", BadDocument.MALFORMED_JSON.data());
		assertThatException().isThrownBy(() -> ConfigTestSupport.run("--" + zk.connectProperty(),
				"--zk.config.snapshot-dir=" + this.snapshots));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("The configuration in znode /config/orders (version 0) was rejected: malformed JSON")
			.contains("Fix the document in /config/orders")
			.doesNotContain(BadDocument.SECRET);
	}

}
