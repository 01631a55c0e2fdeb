package dev.zkspring.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.autoconfigure.context.properties.ConfigurationPropertiesReportEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.env.EnvironmentEndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.info.InfoContributorAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.info.InfoEndpointAutoConfiguration;
import org.springframework.boot.actuate.context.properties.ConfigurationPropertiesReportEndpoint;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.env.EnvironmentEndpoint;
import org.springframework.boot.actuate.info.InfoEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;

import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkSanitizingAutoConfiguration;
import dev.zkspring.config.ConfigCipher;
import dev.zkspring.config.ZkConfigRejectedEvent;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A secret's plain value is readable through Boot's own endpoints neither through a placeholder that
 * resolves to it ({@code spring.datasource.password=${shop.password}}, in the packaged properties or in
 * the document itself) nor by moving its ciphertext to a displayed key ({@code info.owner}): the
 * {@code env}, {@code configprops} and {@code info} endpoints, with their values shown, hold
 * ciphertext or {@code ******}; the moved value is refused naming its key.
 */
@ExtendWith(OutputCaptureExtension.class)
class EncryptedValueReferencesEndpointsTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ZkAppFixture.app()).cleaning("/config", "/fleet");

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String SECRET = "Shop-Passw0rd-Plain";

	private static final String KEY = ConfigCipher.generateKey();

	private static final ConfigCipher CIPHER = ConfigCipher.ofKey(KEY);

	private static final String ZNODE = "/config/orders";

	@AfterEach
	void cleanUp(CapturedOutput output) throws Exception {
		assertThat(output).doesNotContain(SECRET).doesNotContain(KEY);
	}

	private ApplicationContextRunner runner() {
		return app.runner()
			.withConfiguration(AutoConfigurations.of(ZkFleetAutoConfiguration.class, ZkSanitizingAutoConfiguration.class,
					EndpointAutoConfiguration.class, EnvironmentEndpointAutoConfiguration.class,
					ConfigurationPropertiesReportEndpointAutoConfiguration.class, InfoEndpointAutoConfiguration.class,
					InfoContributorAutoConfiguration.class))
			.withUserConfiguration(WiredConfiguration.class)
			.withPropertyValues("zk.leader.id=node-1", "zk.config.encryption.key=" + KEY,
					"management.endpoints.web.exposure.include=env,configprops,info",
					"management.endpoint.env.show-values=always", "management.endpoint.configprops.show-values=always",
					"management.info.env.enabled=true");
	}

	@Test
	void aValueThatResolvesThroughAnEncryptedOneIsMaskedByEveryEndpoint() throws Exception {
		write("{\"shop\":{\"password\":\"" + CIPHER.encryptFor("shop.password", SECRET) + "\",\"greeting\":\"hi\"},"
				+ "\"info\":{\"contact\":\"call ${shop.password}\",\"team\":\"shop\"},"
				+ "\"wired\":{\"alias\":\"x-${wired.password}\"}}");
		runner().withPropertyValues("spring.datasource.password=${shop.password}", "wired.password=${shop.password}",
				"info.owner=${spring.datasource.password}", "info.app=orders", "wired.name=${shop.greeting}")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				// the application still sees the plain value, under every key that refers to it
				assertThat(context.getEnvironment().getProperty("spring.datasource.password")).isEqualTo(SECRET);
				WiredProperties wired = context.getBean(WiredProperties.class);
				assertThat(wired.getPassword()).isEqualTo(SECRET);
				assertThat(wired.getAlias()).isEqualTo("x-" + SECRET);

				EnvironmentEndpoint env = context.getBean(EnvironmentEndpoint.class);
				assertThat(json(env.environment(null))).doesNotContain(SECRET).contains("{cipher}").contains("shop.password");
				assertThat(env.environmentEntry("spring.datasource.password").getProperty().getValue())
					.isEqualTo(SanitizableData.SANITIZED_VALUE);
				assertThat(env.environmentEntry("wired.name").getProperty().getValue()).isEqualTo("hi");
				assertThat((String) env.environmentEntry("shop.password").getProperty().getValue()).startsWith("{cipher}");

				String configprops = json(
						context.getBean(ConfigurationPropertiesReportEndpoint.class).configurationProperties());
				assertThat(configprops).doesNotContain(SECRET).contains("\"name\":\"hi\"").contains("******");

				Map<String, Object> info = context.getBean(InfoEndpoint.class).info();
				assertThat(json(info)).doesNotContain(SECRET);
				assertThat(info).containsEntry("app", "orders")
					.containsEntry("owner", SanitizableData.SANITIZED_VALUE)
					.containsEntry("contact", SanitizableData.SANITIZED_VALUE)
					.containsEntry("team", "shop");
			});
	}

	@Test
	void aCiphertextMovedToAnotherKeyIsRefusedNamingThatKey() throws Exception {
		String sealed = CIPHER.encryptFor("shop.password", SECRET);
		write("{\"shop\":{\"password\":\"" + sealed + "\"},\"info\":{\"owner\":\"ann\"}}");
		runner().withBean(Rejections.class, Rejections::new).run((context) -> {
			assertThat(context).hasNotFailed();
			write("{\"shop\":{\"password\":\"" + sealed + "\"},\"info\":{\"owner\":\"" + sealed + "\"}}");
			Rejections rejections = context.getBean(Rejections.class);
			await().atMost(WAIT).until(() -> !rejections.reasons.isEmpty());
			assertThat(rejections.reasons.get(0)).contains("'info.owner'").contains("moved");
			assertThat(context.getBean(InfoEndpoint.class).info()).containsEntry("owner", "ann");
			assertThat(context.getEnvironment().getProperty("info.owner")).isEqualTo("ann");
		});
		// at startup: the start fails naming the key
		runner().run((context) -> assertThat(context).hasFailed()
			.getFailure()
			.hasStackTraceContaining("'info.owner'")
			.hasStackTraceContaining("moved"));
	}

	@Test
	@SuppressWarnings("deprecation")
	void aValueEncryptedBeforeKeyBindingIsAcceptedWithAWarningNamingItsKeyAndMaskedWhereMoved(CapturedOutput output)
			throws Exception {
		String unbound = CIPHER.encrypt(SECRET);
		write("{\"shop\":{\"password\":\"" + unbound + "\"},\"info\":{\"owner\":\"" + unbound + "\"}}");
		runner().run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getEnvironment().getProperty("shop.password")).isEqualTo(SECRET);
			assertThat(context.getBean(InfoEndpoint.class).info()).containsEntry("owner", SanitizableData.SANITIZED_VALUE);
			assertThat(json(context.getBean(EnvironmentEndpoint.class).environment(null))).doesNotContain(SECRET)
				.contains("shop.password");
		});
		assertThat(output).contains("The value of key 'shop.password' in znode /config/orders is encrypted in format 1")
			.contains("config encrypt --property shop.password")
			.contains("zk.config.encryption.accept-unbound-values=false");
		runner().withPropertyValues("zk.config.encryption.accept-unbound-values=false")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("is encrypted in format 1, which is not bound to its key")
				.hasStackTraceContaining("zk.config.encryption.accept-unbound-values"));
	}

	/** What the endpoint's HTTP response would hold. */
	private static String json(Object descriptor) {
		return JsonMapper.builder().build().writeValueAsString(descriptor);
	}

	private void write(String json) throws Exception {
		app.write(ZNODE, json);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(WiredProperties.class)
	static class WiredConfiguration {

	}

	@ConfigurationProperties("wired")
	public static class WiredProperties {

		private String password;

		private String alias;

		private String name;

		public String getPassword() {
			return this.password;
		}

		public void setPassword(String password) {
			this.password = password;
		}

		public String getAlias() {
			return this.alias;
		}

		public void setAlias(String alias) {
			this.alias = alias;
		}

		public String getName() {
			return this.name;
		}

		public void setName(String name) {
			this.name = name;
		}

	}

	static class Rejections implements org.springframework.context.ApplicationListener<ZkConfigRejectedEvent> {

		final List<String> reasons = new java.util.concurrent.CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ZkConfigRejectedEvent event) {
			this.reasons.add(event.getReason());
		}

	}

}
