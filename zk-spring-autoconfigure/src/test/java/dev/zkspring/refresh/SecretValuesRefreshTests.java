package dev.zkspring.refresh;

import jakarta.validation.constraints.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.validation.annotation.Validated;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** A secret value in a refused change (validation that interpolates it, a failed conversion) is never printed. */
@ExtendWith(OutputCaptureExtension.class)
class SecretValuesRefreshTests {

	private static final String SECRET = "s3cr3t-Value";

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config")
		.with((runner) -> runner.withUserConfiguration(Enable.class));

	@BeforeEach
	void setUp() throws Exception {
		write(app.writer(), ZNODE, "{'vault':{'token':'abc','port':1}}");
	}

	@Test
	void aValidationMessageThatInterpolatesTheValueNeverPrintsIt(CapturedOutput output) throws Exception {
		app.runner().run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'vault':{'token':'" + SECRET + "','port':1}}");
			await().atMost(WAIT).until(() -> events.rejections.size() == 1);
			assertThat(events.rejections.get(0).getReason()).contains("vault.token").contains("@Pattern");
			assertThat(events.rejections.get(0).toString()).doesNotContain(SECRET);
			assertThat(output).contains("Refused the configuration change of znode " + ZNODE).doesNotContain(SECRET);
		});
	}

	@Test
	void anUnconvertibleValueNeverPrintsIt(CapturedOutput output) throws Exception {
		app.runner().run((context) -> {
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), ZNODE, "{'vault':{'token':'abc','port':'" + SECRET + "'}}");
			await().atMost(WAIT).until(() -> events.rejections.size() == 1);
			assertThat(events.rejections.get(0).getKey()).isEqualTo("vault.port");
			assertThat(events.rejections.get(0).getReason()).doesNotContain(SECRET);
			assertThat(output).contains("Refused the configuration change of znode " + ZNODE).doesNotContain(SECRET);
		});
	}

	@EnableConfigurationProperties(Vault.class)
	static class Enable {

	}

	@RefreshScope
	@Validated
	@ConfigurationProperties("vault")
	public static class Vault {

		@Pattern(regexp = "[a-z]+", message = "must be lower case letters, not '${validatedValue}'")
		private String token;

		private int port;

		public String getToken() {
			return this.token;
		}

		public void setToken(String token) {
			this.token = token;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

	}

}
