package dev.zkspring.actuate;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.env.EnvironmentEndpoint;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggerConfiguration;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

import dev.zkspring.autoconfigure.ZkEndpointAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkSanitizingAutoConfiguration;
import dev.zkspring.config.ConfigCipher;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A whole run with an encrypted password, its change and an undecryptable version: the plain value
 * reaches the Environment only; the endpoint (even with show-values=always), the fleet view, events,
 * refusals, ZooKeeper and every line of the captured output hold ciphertext or key names.
 */
@ExtendWith(OutputCaptureExtension.class)
class EncryptedValuesExposureTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ZkAppFixture.app()).cleaning("/config", "/fleet");

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final String SECRET = "Db-Passw0rd-Plain";

	private static final String SECRET_2 = "Db-Passw0rd-Rotated";

	private static final String KEY = ConfigCipher.generateKey();

	private static final ConfigCipher CIPHER = ConfigCipher.ofKey(KEY);

	private LogLevel rootLevel = LogLevel.INFO;

	@BeforeEach
	void setUp() throws Exception {
		write("{\"shop\":{\"password\":\"" + CIPHER.encryptFor("shop.password", SECRET) + "\",\"greeting\":\"hi\"}}");
	}

	@AfterEach
	void cleanUp() throws Exception {
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		logging.setLogLevel(LoggingSystem.ROOT_LOGGER_NAME, this.rootLevel);
		logging.setLogLevel("dev.zkspring", null);
	}

	@Test
	@SuppressWarnings("unchecked")
	void noViewEventOrLogLineShowsThePlainValue(CapturedOutput output) {
		// everything logged at its most talkative, ZooKeeper's and Curator's packets included
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		LoggerConfiguration root = logging.getLoggerConfiguration(LoggingSystem.ROOT_LOGGER_NAME);
		this.rootLevel = (root != null && root.getConfiguredLevel() != null) ? root.getConfiguredLevel() : LogLevel.INFO;
		logging.setLogLevel(LoggingSystem.ROOT_LOGGER_NAME, LogLevel.DEBUG);
		logging.setLogLevel("dev.zkspring", LogLevel.TRACE);
		app.runner()
			.withConfiguration(AutoConfigurations.of(ZkFleetAutoConfiguration.class, ZkEndpointAutoConfiguration.class,
					ZkSanitizingAutoConfiguration.class))
			.withBean(Events.class, Events::new)
			.withPropertyValues("zk.leader.id=node-1", "zk.config.encryption.key=" + KEY,
					"management.endpoints.web.exposure.include=zookeeper",
					"management.endpoint.zookeeper.show-values=always")
			.run((context) -> {
				assertThat(context.getEnvironment().getProperty("shop.password")).isEqualTo(SECRET);
				ZkEndpoint endpoint = context.getBean(ZkEndpoint.class);
				Map<String, Object> body = endpoint.zookeeper(SecurityContext.NONE);
				Map<String, Map<String, Object>> keys = (Map<String, Map<String, Object>>) ((Map<String, Object>) body
					.get("config")).get("keys");
				assertThat(keys.get("shop.greeting")).containsEntry("value", "hi");
				assertThat((String) keys.get("shop.password").get("value")).startsWith("{cipher}");
				assertThat(body.toString()).doesNotContain(SECRET);
				// without any sanitizing function too, and in Boot's env endpoint showing values
				assertThat(new ConfigSources(context.getEnvironment(), List.of()).describeKeys(true).toString())
					.contains("{cipher}").doesNotContain(SECRET);
				EnvironmentEndpoint env = new EnvironmentEndpoint(context.getEnvironment(),
						context.getBeansOfType(SanitizingFunction.class).values(), Show.ALWAYS);
				assertThat(env.environmentEntry("shop.greeting").getProperty().getValue()).isEqualTo("hi");
				assertThat((String) env.environmentEntry("shop.password").getProperty().getValue()).startsWith("{cipher}");

				write("{\"shop\":{\"password\":\"" + CIPHER.encryptFor("shop.password", SECRET_2) + "\",\"greeting\":\"hi\"}}");
				await().atMost(WAIT).until(() -> SECRET_2.equals(context.getEnvironment().getProperty("shop.password")));
				write("{\"shop\":{\"password\":\"" + ConfigCipher.ofKey(ConfigCipher.generateKey()).encryptFor("shop.password", SECRET)
						+ "\",\"greeting\":\"hi\"}}");
				ZkFleet fleet = context.getBean(ZkFleet.class);
				await().atMost(WAIT).untilAsserted(() -> assertThat(config(fleet)).singleElement()
					.satisfies((state) -> assertThat(state).containsEntry("znode", "/config/orders")
						.containsEntry("appliedVersion", 1)
						.containsEntry("status", "REFUSED")
						.hasEntrySatisfying("reason", (reason) -> assertThat((String) reason).contains("shop.password")
							.contains("cannot be decrypted"))));
				assertThat(context.getEnvironment().getProperty("shop.password")).isEqualTo(SECRET_2);
				assertThat(endpoint.zookeeper(SecurityContext.NONE).toString()).doesNotContain(SECRET).doesNotContain(SECRET_2);
				assertThat(fleet.instances().toString()).doesNotContain(SECRET).doesNotContain(SECRET_2);
				for (String child : app.writer().getChildren().forPath("/fleet/orders")) {
					assertThat(new String(app.writer().getData().forPath("/fleet/orders/" + child), StandardCharsets.UTF_8))
						.doesNotContain(SECRET_2);
				}
				assertThat(context.getBean(Events.class).seen).isNotEmpty()
					.allSatisfy((event) -> assertThat(event).doesNotContain(SECRET).doesNotContain(SECRET_2));
			});
		assertThat(output).contains("Rejected the configuration in znode /config/orders (version 2)")
			.as("the capture holds the debug output").contains("DEBUG");
		assertThat(output.toString().lines()).isNotEmpty()
			.allSatisfy((line) -> assertThat(line).doesNotContain(SECRET).doesNotContain(SECRET_2).doesNotContain(KEY));
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> config(ZkFleet fleet) {
		return (List<Map<String, Object>>) fleet.instances().get(0).get("config");
	}

	private void write(String json) throws Exception {
		byte[] data = json.getBytes(StandardCharsets.UTF_8);
		if (app.writer().checkExists().forPath("/config/orders") == null) {
			app.writer().create().creatingParentsIfNeeded().forPath("/config/orders", data);
		}
		else {
			app.writer().setData().forPath("/config/orders", data);
		}
	}

	/** Every event of the run, as it would be logged or shown: its text and its changes' values. */
	static class Events implements ApplicationListener<ApplicationEvent> {

		final List<String> seen = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ApplicationEvent event) {
			String changes = (event instanceof dev.zkspring.config.ZkConfigChangedEvent changed)
					? changed.getChanges().stream().map((c) -> c.key() + "=" + c.oldValue() + "->" + c.newValue()).toList().toString()
					: "";
			this.seen.add(event + " " + changes);
		}

	}

}
