package dev.zkspring.config;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.config.ConfigTestSupport.EventRecorder;
import dev.zkspring.fleet.ZkFleet;
import dev.zkspring.refresh.RefreshScope;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A change refused by a refresh target is blamed on the context whose document caused it, even when
 * the key that broke lives in another context's document (a placeholder in /config/orders that names
 * a key of /config/application): that one is held back and reported once, the fleet shows it
 * REFUSED, and valid changes of the other contexts keep applying.
 */
class ZkConfigRefusalBlameTests {

	private static final String SHARED = "/config/application";

	private static final String OWN = "/config/orders";

	private static final Duration WAIT = Duration.ofSeconds(10);

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config", "/fleet");

	@BeforeEach
	void setUp() throws Exception {
		write(app.writer(), SHARED, "{\"app\":{\"limit\":\"5\"}}");
		write(app.writer(), OWN, "{\"orders\":{\"limit\":\"${app.limit}\",\"greeting\":\"g1\"}}");
	}

	@Test
	void aBadPlaceholderArrivingThroughTheSharedContextIsBlamedOnItAndTheOwnContextKeepsApplying() {
		runner().run((context) -> {
			Limits limits = context.getBean(Limits.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			assertThat(limits.limit).isEqualTo(5);
			write(app.writer(), SHARED, "{\"app\":{\"limit\":\"${app.ceiling}\"}}");
			await().atMost(WAIT).until(() -> !events.rejections.isEmpty());
			write(app.writer(), OWN, "{\"orders\":{\"limit\":\"${app.limit}\",\"greeting\":\"g2\"}}");
			await().atMost(WAIT).until(() -> "g2".equals(limits.greeting));
			assertThat(limits.limit).isEqualTo(5);
			assertThat(events.rejections).as("one report, of the document that caused it")
				.extracting(ZkConfigRejectedEvent::getZnode, ZkConfigRejectedEvent::getVersion)
				.containsExactly(org.assertj.core.groups.Tuple.tuple(SHARED, 1));
			await().atMost(WAIT).untilAsserted(() -> assertThat(fleetConfig(context))
				.anySatisfy((entry) -> assertThat(entry).containsEntry("znode", SHARED).containsEntry("status", "REFUSED"))
				.anySatisfy((entry) -> assertThat(entry).containsEntry("znode", OWN).containsEntry("status", "CURRENT")));
			write(app.writer(), OWN, "{\"orders\":{\"limit\":\"${app.limit}\",\"greeting\":\"g3\"}}");
			await().atMost(WAIT).until(() -> "g3".equals(limits.greeting));
			assertThat(events.rejections).as("the same version is not reported again").hasSize(1);
		});
	}

	@Test
	void whenOneTransactionChangesBothContextsOnlyTheCulpritIsHeldBack() {
		runner().run((context) -> {
			Limits limits = context.getBean(Limits.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			app.writer().transaction()
				.forOperations(app.writer().transactionOp().setData().forPath(SHARED, utf8("{\"app\":{\"limit\":\"${app.ceiling}\"}}")),
						app.writer().transactionOp().setData().forPath(OWN,
								utf8("{\"orders\":{\"limit\":\"${app.limit}\",\"greeting\":\"g2\"}}")));
			await().atMost(WAIT).until(() -> "g2".equals(limits.greeting));
			assertThat(limits.limit).isEqualTo(5);
			assertThat(events.rejections).extracting(ZkConfigRejectedEvent::getZnode).containsExactly(SHARED);
		});
	}

	@Test
	void aFixOfTheSharedContextIsAppliedAfterItsRefusal() {
		runner().run((context) -> {
			Limits limits = context.getBean(Limits.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			write(app.writer(), SHARED, "{\"app\":{\"limit\":\"${app.ceiling}\"}}");
			await().atMost(WAIT).until(() -> !events.rejections.isEmpty());
			write(app.writer(), SHARED, "{\"app\":{\"limit\":\"7\"}}");
			await().atMost(WAIT).until(() -> limits.limit == 7);
			assertThat(events.rejections).hasSize(1);
		});
	}

	private static byte[] utf8(String text) {
		return text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> fleetConfig(AssertableApplicationContext context) {
		return context.getBean(ZkFleet.class)
			.instances()
			.stream()
			.flatMap((instance) -> ((List<Map<String, Object>>) instance.get("config")).stream())
			.toList();
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner()
			.withInitializer((context) -> context.getBeanFactory()
				.setConversionService(ApplicationConversionService.getSharedInstance()))
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class, ZkAutoConfiguration.class,
					ZkRefreshAutoConfiguration.class, ZkFleetAutoConfiguration.class))
			.withBean(Limits.class)
			.withBean(EventRecorder.class, EventRecorder::new)
			.withPropertyValues(app.zk().connectProperty(), "zk.config.snapshot-dir=" + app.snapshots(),
					"spring.application.name=orders", "zk.leader.enabled=false", "zk.leader.id=node-1");
	}

	@RefreshScope
	static class Limits {

		@Value("${orders.limit}")
		volatile int limit;

		@Value("${orders.greeting}")
		volatile String greeting;

	}

}
