package dev.zkspring.publish;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.config.ZkConfigChangedEvent;
import dev.zkspring.config.ZkConfigInitializer;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** An instance watching while the tool publishes, rolls back and imports: its values follow; history reloads nothing. */
class ConfigPublisherInstanceIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server().cleaning("/config", "/config.meta");

	private static final Duration WAIT = Duration.ofSeconds(15);

	@TempDir
	Path exported;

	private ConfigPublisher publisher;

	@BeforeEach
	void setUp() throws Exception {
		this.publisher = new ConfigPublisher(app.writer(), "/config");
	}

	@Test
	void valuesFollowPutRollbackAndImportAndEachPublishIsOneChangeEvent() throws Exception {
		this.publisher.put("orders", bytes("{\"shop\":{\"limit\":1}}"), Change.by("alice", "first"));
		runner().run((context) -> {
			Changes changes = context.getBean(Changes.class);
			this.publisher.put("orders", bytes("{\"shop\":{\"limit\":2}}"), Change.by("alice", "second"));
			await().atMost(WAIT).until(() -> "2".equals(context.getEnvironment().getProperty("shop.limit")));
			this.publisher.rollback("orders", 1, Change.by("bob", null));
			await().atMost(WAIT).until(() -> "1".equals(context.getEnvironment().getProperty("shop.limit")));
			Files.writeString(this.exported.resolve("orders.json"), "{\"shop\":{\"limit\":3}}");
			assertThat(this.publisher.importFrom(this.exported, Change.by("carol", "from git"))).hasSize(1);
			await().atMost(WAIT).until(() -> "3".equals(context.getEnvironment().getProperty("shop.limit")));
			await().atMost(WAIT).until(() -> changes.events.size() == 3);
			// history writes of their own (an outside write recorded, history read) reload nothing
			app.writer().setData().forPath("/config/orders", bytes("{\"shop\":{\"limit\":4}}"));
			await().atMost(WAIT).until(() -> "4".equals(context.getEnvironment().getProperty("shop.limit")));
			await().atMost(WAIT).until(() -> changes.events.size() == 4);
			assertThat(this.publisher.history("orders")).hasSize(5);
			// the history read above recorded the outside write in the history: no reload came of it, and the
			// next publish is the fifth change event, not the sixth
			this.publisher.put("orders", bytes("{\"shop\":{\"limit\":5}}"), Change.by("dave", null));
			await().atMost(WAIT).until(() -> "5".equals(context.getEnvironment().getProperty("shop.limit")));
			await().atMost(WAIT).until(() -> changes.events.size() >= 5);
			assertThat(this.publisher.history("orders")).hasSize(6);
			assertThat(changes.events).hasSize(5);
			assertThat(changes.events).allSatisfy((event) -> assertThat(event.getKeys()).containsExactly("shop.limit"));
		});
	}

	private ApplicationContextRunner runner() {
		return new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withBean(Changes.class, Changes::new)
			.withPropertyValues(app.zk().connectProperty(), "zk.config.snapshot-dir=" + app.snapshots(),
					"spring.application.name=orders");
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static class Changes implements ApplicationListener<ZkConfigChangedEvent> {

		final List<ZkConfigChangedEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(ZkConfigChangedEvent event) {
			this.events.add(event);
		}

	}

}
