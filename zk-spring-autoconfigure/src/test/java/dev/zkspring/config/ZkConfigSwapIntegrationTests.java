package dev.zkspring.config;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.env.MapPropertySource;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.test.ZkAppFixture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A swap is one step for every reader: a thread reading while the refresher is held right after the new
 * document was put in force sees the new document together with the lower values it hides or shows, never
 * the new document with the old hiding.
 */
class ZkConfigSwapIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config");

	private static final long WAIT_SECONDS = 10;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() throws Exception {
		// below the config center's source, there before it loads (as application.yml is)
		this.runner = new ApplicationContextRunner()
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addLast(new MapPropertySource("packaged", Map.of("routing.routes.a", "lower"))))
			.withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withPropertyValues(app.zk().connectProperty(), "zk.config.snapshot-dir=" + app.snapshots(),
					"spring.application.name=orders");
	}

	@Test
	void aReaderDuringTheSwapSeesTheNewDocumentWithTheLowerValueItClears() throws Exception {
		ConfigTestSupport.write(app.writer(), "/config/orders", "{\"marker\":\"v1\"}");
		this.runner.run((context) -> {
			assertThat(context.getEnvironment().getProperty("routing.routes.a")).isEqualTo("lower");
			String[] seen = readDuringSwap(context, "{\"marker\":\"v2\",\"routing\":{\"routes\":{}}}");
			assertThat(seen).containsExactly("v2", null);
			await().until(() -> "v2".equals(context.getEnvironment().getProperty("marker")));
			assertThat(context.getEnvironment().getProperty("routing.routes.a")).isNull();
		});
	}

	@Test
	void aReaderDuringTheSwapSeesTheNewDocumentWithTheLowerValueItNoLongerClears() throws Exception {
		ConfigTestSupport.write(app.writer(), "/config/orders", "{\"marker\":\"v1\",\"routing\":{\"routes\":{}}}");
		this.runner.run((context) -> {
			assertThat(context.getEnvironment().getProperty("routing.routes.a")).isNull();
			String[] seen = readDuringSwap(context, "{\"marker\":\"v2\"}");
			assertThat(seen).containsExactly("v2", "lower");
		});
	}

	/**
	 * Write a document whose marker is {@code v2}, hold the refresher right after its swap, and read from
	 * this thread meanwhile.
	 */
	private String[] readDuringSwap(ConfigurableApplicationContext context, String json) throws Exception {
		ZkConfigWatcher watcher = context.getBean(ConfigBootstrap.WATCHER_BEAN, ZkConfigWatcher.class);
		CountDownLatch swapped = new CountDownLatch(1);
		CountDownLatch read = new CountDownLatch(1);
		AtomicReference<String[]> seen = new AtomicReference<>();
		watcher.onSwapped(() -> {
			// the reload when the context became ready may swap in the same document first: not that one
			Object inForce = context.getEnvironment().getPropertySources().get(ZkConfigInitializer.PROPERTY_SOURCE_NAME)
				.getProperty("marker");
			if (!"v2".equals(inForce) || swapped.getCount() == 0) {
				return;
			}
			swapped.countDown();
			try {
				read.await(WAIT_SECONDS, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		});
		try {
			ConfigTestSupport.write(app.writer(), "/config/orders", json);
			assertThat(swapped.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the refresher swapped").isTrue();
			seen.set(new String[] { context.getEnvironment().getProperty("marker"),
					context.getEnvironment().getProperty("routing.routes.a") });
		}
		finally {
			read.countDown();
		}
		return seen.get();
	}

}
