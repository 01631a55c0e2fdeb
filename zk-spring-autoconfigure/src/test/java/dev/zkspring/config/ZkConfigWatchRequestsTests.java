package dev.zkspring.config;

import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.test.ServerRequests;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What one change costs each instance, counted by the server on the instance's own connection: the
 * watch event is free, and the reload it causes is one multi-read of the contexts and their canary nodes.
 */
class ZkConfigWatchRequestsTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config");

	private static final Duration WAIT = Duration.ofSeconds(15);

	@Test
	void oneChangeCostsEachInstanceOneRequest() throws Exception {
		write(app.writer(), "/config/application", "{\"shop\":{\"shared\":\"s\"}}");
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"g0\"}}");
		app.runner().withPropertyValues("spring.profiles.active=eu").run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			// one change first, so the watch is in place and the reload at readiness is behind us
			change(context, "g1");
			long fewest = ServerRequests.fewest(client, List.of("g2", "g3", "g4"), (greeting) -> change(context, greeting));
			assertThat(fewest).as("requests the instance sent for one change of one of its four contexts")
				.isEqualTo(1);
		});
	}

	private void change(ConfigurableApplicationContext context, String greeting) throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"" + greeting + "\"}}");
		await().atMost(WAIT).pollInterval(Duration.ofMillis(2))
			.until(() -> greeting.equals(context.getEnvironment().getProperty("shop.greeting")));
	}

}
