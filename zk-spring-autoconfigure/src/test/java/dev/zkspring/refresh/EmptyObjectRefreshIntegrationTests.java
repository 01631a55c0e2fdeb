package dev.zkspring.refresh;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

import dev.zkspring.refresh.RefreshTestSupport.EventRecorder;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.refresh.RefreshTestSupport.WAIT;
import static dev.zkspring.refresh.RefreshTestSupport.ZNODE;
import static dev.zkspring.refresh.RefreshTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code {}} written while the application runs clears the packaged map; removing it brings it back. */
class EmptyObjectRefreshIntegrationTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(RefreshTestSupport::runner).cleaning("/config")
		.with((runner) -> runner.withUserConfiguration(Enable.class));

	@Test
	void anEmptyObjectWrittenAtRuntimeClearsTheLowerSourcesMapAndItsRemovalRestoresIt() throws Exception {
		write(app.writer(), ZNODE, "{'routing':{'routes':{'zk-route':'from-zk'}}}");
		app.runner().run((context) -> {
			Routing routing = context.getBean(Routing.class);
			EventRecorder events = context.getBean(EventRecorder.class);
			assertThat(routing.getRoutes()).containsOnlyKeys("zk-route", "yml-route");
			write(app.writer(), ZNODE, "{'routing':{'routes':{}}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 1);
			assertThat(routing.getRoutes()).as("{} clears the packaged entries too").isEmpty();
			assertThat(context.getEnvironment().getProperty("routing.routes.yml-route")).isNull();
			write(app.writer(), ZNODE, "{'routing':{'other':1}}");
			await().atMost(WAIT).until(() -> events.refreshes.size() == 2);
			assertThat(routing.getRoutes()).containsOnly(Map.entry("yml-route", "from-yml"));
			assertThat(context.getEnvironment().getProperty("routing.routes.yml-route")).isEqualTo("from-yml");
		});
	}

	@EnableConfigurationProperties(Routing.class)
	static class Enable {

	}

	@RefreshScope
	@ConfigurationProperties("routing")
	public static class Routing {

		private Map<String, String> routes = new LinkedHashMap<>();

		public Map<String, String> getRoutes() {
			return this.routes;
		}

		public void setRoutes(Map<String, String> routes) {
			this.routes = routes;
		}

	}

}
