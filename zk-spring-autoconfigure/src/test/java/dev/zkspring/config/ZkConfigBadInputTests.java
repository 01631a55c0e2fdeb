package dev.zkspring.config;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ConfigTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.awaitility.Awaitility.await;

/** Bad documents never reach the Environment: at startup, and while the application runs. */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigBadInputTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config")
		.with((runner) -> runner
				.withPropertyValues("zk.config.max-document-size=" + BadDocument.MAX_SIZE)
				.withBean(EventRecorder.class, EventRecorder::new));

	@BeforeEach
	void setUp() throws Exception {
		write(app.writer(), "/config/application", "{\"shop\":{\"greeting\":\"shared\"}}");
	}

	@ParameterizedTest
	@EnumSource(BadDocument.class)
	void atStartupWithFailFastTheStartupFailsNamingTheZnodeAndTheReason(BadDocument document, CapturedOutput output)
			throws Exception {
		write(app.writer(), "/config/orders", document.data());
		app.runner().run((context) -> {
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
		write(app.writer(), "/config/orders", document.data());
		app.runner().withPropertyValues("zk.config.fail-fast=false").run((context) -> {
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
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"good\"}}");
		app.runner().run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), "/config/orders", document.data());
			await().atMost(Duration.ofSeconds(10)).until(() -> !events.rejections.isEmpty());
			ZkConfigRejectedEvent rejection = events.rejections.get(0);
			assertThat(rejection.getZnode()).isEqualTo("/config/orders");
			assertThat(rejection.getVersion()).isEqualTo(1);
			assertThat(rejection.getReason()).contains(document.reason).doesNotContain(BadDocument.SECRET);
			assertThat(rejection.getKey()).isEqualTo(document.key);
			assertThat(rejection).asString().doesNotContain(BadDocument.SECRET);
			// a later accepted change elsewhere re-reads the bad node: it must not be rejected again
			write(app.writer(), "/config/application", "{\"shop\":{\"greeting\":\"shared\",\"other\":\"x\"}}");
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
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"good\"}}");
		app.runner().run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), "/config/orders", BadDocument.MALFORMED_JSON.data());
			await().atMost(Duration.ofSeconds(10)).until(() -> !events.rejections.isEmpty());
			write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"fixed\"}}");
			await().atMost(Duration.ofSeconds(10))
				.until(() -> "fixed".equals(context.getEnvironment().getProperty("shop.greeting")));
		});
	}

	@Test
	void theFailureAnalyzerShowsARejectedDocumentAtStartup(CapturedOutput output) throws Exception {
		write(app.writer(), "/config/orders", BadDocument.MALFORMED_JSON.data());
		assertThatException().isThrownBy(() -> ConfigTestSupport.run("--" + app.zk().connectProperty(),
				"--zk.config.snapshot-dir=" + app.snapshots()));
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("The configuration in znode /config/orders (version 0) was rejected: malformed JSON")
			.contains("Fix the document in /config/orders")
			.doesNotContain(BadDocument.SECRET);
	}

}
