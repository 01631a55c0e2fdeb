package dev.zkspring.client;

import java.net.ServerSocket;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/** Every startup failure a user can cause says what is wrong, naming the property, and what to do. */
@ExtendWith(OutputCaptureExtension.class)
class ZkStartupFailureTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class));

	@Test
	void applicationWithNeitherConnectNorEmbeddedServerFailsWithTheActionableMessage(CapturedOutput output) {
		SpringApplication application = new SpringApplication(EmptyApplication.class);
		application.setWebApplicationType(WebApplicationType.NONE);
		assertThatException().isThrownBy(application::run);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("zk.connect is not set and the embedded server is off")
			.contains("Set zk.connect to your ensemble")
			.contains("zk.embedded.enabled=true");
	}

	@Test
	void notConnectedWithinTheTimeoutNamesTheConnectStringAndTheTimeout() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			closedPort = socket.getLocalPort();
		}
		String connect = "127.0.0.1:" + closedPort;
		long started = System.nanoTime();
		FailureAnalysis analysis = failure("zk.connect=" + connect, "zk.connection-timeout=1500ms");
		assertThat(System.nanoTime() - started).isLessThan(15_000_000_000L);
		assertThat(analysis.getDescription()).contains("'" + connect + "'").contains("PT1.5S").contains("zk.connection-timeout");
		assertThat(analysis.getAction()).contains("zk.connect").contains("zk.connection-timeout");
	}

	@ParameterizedTest
	@ValueSource(strings = { "localhost:abc", "localhost:99999", "localhost:2181,,other:2181", "local host:2181",
			"[::1:2181", "a:1:2", "localhost:2181/bad//chroot", ":2181" })
	void malformedConnectStringNamesTheProperty(String connect) {
		FailureAnalysis analysis = failure("zk.connect=" + connect);
		assertThat(analysis.getDescription()).startsWith("zk.connect '" + connect + "' is not a valid connect string");
		assertThat(analysis.getAction()).contains("host:port");
	}

	@ParameterizedTest
	@ValueSource(strings = { "127.0.0.1:1", "zk1:2181,zk2:2181,zk3:2181/app", "[::1]:2181", "zk-1.example.com" })
	void wellFormedConnectStringsPassValidation(String connect) {
		ConnectString.validate(connect);
	}

	@Test
	void digestCredentialsWithoutUserAndPasswordNameThePropertyButNotTheValue() {
		FailureAnalysis analysis = failure("zk.connect=127.0.0.1:2181", "zk.auth.credentials=s3cr3t-no-colon");
		assertThat(analysis.getDescription()).contains("zk.auth.credentials").contains("user:password")
			.doesNotContain("s3cr3t");
		assertThat(analysis.getAction()).doesNotContain("s3cr3t");
	}

	@Test
	void emptyAuthSchemeNamesTheProperty() {
		assertThat(failure("zk.connect=127.0.0.1:2181", "zk.auth.scheme=", "zk.auth.credentials=u:p").getDescription())
			.contains("zk.auth.scheme");
	}

	@Test
	void invalidNamespaceNamesTheProperty() {
		assertThat(failure("zk.connect=127.0.0.1:2181", "zk.namespace=a//b").getDescription())
			.startsWith("zk.namespace 'a//b' is not a valid znode path");
	}

	@Test
	void nonPositiveTimeoutNamesTheProperty() {
		assertThat(failure("zk.connect=127.0.0.1:2181", "zk.session-timeout=0s").getAction())
			.contains("zk.session-timeout");
	}

	@Test
	void tooManyRetriesNamesTheProperty() {
		assertThat(failure("zk.connect=127.0.0.1:2181", "zk.retry.max-retries=40").getAction())
			.contains("zk.retry.max-retries");
	}

	@Test
	void unreadableTrustStoreNamesTheProperty() {
		assertThat(failure("zk.connect=127.0.0.1:2181", "zk.ssl.enabled=true", "zk.ssl.trust-store=/nope/trust.p12")
			.getDescription()).contains("zk.ssl.trust-store").contains("/nope/trust.p12");
	}

	private FailureAnalysis failure(String... properties) {
		FailureAnalysis[] analysis = new FailureAnalysis[1];
		this.contextRunner.withPropertyValues(properties).run((context) -> {
			assertThat(context).hasFailed();
			analysis[0] = new ZkStartupFailureAnalyzer().analyze(context.getStartupFailure());
		});
		assertThat(analysis[0]).as("a zk-spring failure analysis").isNotNull();
		return analysis[0];
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(ZkAutoConfiguration.class)
	static class EmptyApplication {

	}

}
