package dev.zkspring.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a Boot user expects of the documents: log levels applied at startup and on change (falling
 * back when removed), {@code []} and {@code {}} clearing a lower source's list or map, map keys with
 * {@code / . : *} bound verbatim (a dotted name inside an object too), environment-like higher sources
 * still winning.
 */
class ZkConfigBootShapeIntegrationTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final String DEMO = "dev.zkspring.demo.zk";

	private static final String LOWER = "dev.zkspring.demo.lower";

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config");

	@AfterEach
	void cleanUp() throws Exception {
		LoggingSystem system = LoggingSystem.get(getClass().getClassLoader());
		system.setLogLevel(DEMO, null);
		system.setLogLevel(LOWER, null);
	}

	@Test
	void logLevelsFromZooKeeperApplyAtStartupAndOnChangeAndFallBackWhenRemoved() throws Exception {
		write(app.writer(), "/config/orders",
				"{\"logging\":{\"level\":{\"dev.zkspring.demo.zk\":\"debug\",\"dev.zkspring.demo.lower\":\"trace\"}}}");
		LoggingSystem system = LoggingSystem.get(getClass().getClassLoader());
		try (ConfigurableApplicationContext context = run()) {
			assertThat(level(system, DEMO)).isEqualTo(LogLevel.DEBUG);
			assertThat(level(system, LOWER)).as("ZooKeeper wins over the packaged yml").isEqualTo(LogLevel.TRACE);
			write(app.writer(), "/config/orders",
					"{\"logging\":{\"level\":{\"dev.zkspring.demo.zk\":\"warn\",\"dev.zkspring.demo.lower\":\"trace\"}}}");
			await().atMost(WAIT).until(() -> level(system, DEMO) == LogLevel.WARN);
			write(app.writer(), "/config/orders", "{\"other\":1}");
			await().atMost(WAIT).until(() -> level(system, LOWER) == LogLevel.ERROR);
			assertThat(level(system, DEMO)).as("no source left: the default").isNull();
		}
	}

	@Test
	void anEmptyObjectUnderLoggingLevelResetsTheLevelsOfLowerSourcesAtStartupAndOnChange() throws Exception {
		write(app.writer(), "/config/orders", "{\"logging\":{\"level\":{}}}");
		LoggingSystem system = LoggingSystem.get(getClass().getClassLoader());
		try (ConfigurableApplicationContext context = run()) {
			assertThat(context.getEnvironment().getProperty("logging.level.dev.zkspring.demo.lower")).isNull();
			assertThat(level(system, LOWER)).as("the yml's level, hidden by {} from the start, is not kept").isNull();
			write(app.writer(), "/config/orders", "{\"other\":1}");
			await().atMost(WAIT).until(() -> level(system, LOWER) == LogLevel.ERROR);
			write(app.writer(), "/config/orders", "{\"logging\":{\"level\":{}},\"other\":2}");
			await().atMost(WAIT).until(() -> level(system, LOWER) == null);
		}
	}

	@Test
	void anEmptyArrayClearsAListOfALowerSourceAndMapKeysWithSpecialCharactersBindVerbatim() throws Exception {
		write(app.writer(), "/config/orders", "{\"routing\":{\"hosts\":[],\"routes\":{\"/api/**\":\"api\","
				+ "\"svc:8080\":\"svc\",\"a b\":\"space\",\"[/v1/*]\":\"v1\"}}}");
		try (ConfigurableApplicationContext context = run()) {
			Routing routing = Binder.get(context.getEnvironment()).bind("routing", Bindable.of(Routing.class)).get();
			assertThat(routing.getHosts()).as("[] in ZooKeeper clears the yml's list").isEmpty();
			assertThat(routing.getRoutes()).containsEntry("/api/**", "api")
				.containsEntry("svc:8080", "svc")
				.containsEntry("a b", "space")
				.containsEntry("/v1/*", "v1");
		}
	}

	@Test
	void anEmptyObjectClearsTheMapOfEveryLowerSourceForTheBinderAndTheEnvironment() throws Exception {
		write(app.writer(), "/config/application", "{\"routing\":{\"routes\":{\"shared\":\"s\"}}}");
		write(app.writer(), "/config/orders", "{\"routing\":{\"routes\":{}}}");
		try (ConfigurableApplicationContext context = run()) {
			Routing routing = Binder.get(context.getEnvironment()).bind("routing", Bindable.of(Routing.class)).get();
			assertThat(routing.getRoutes()).as("{} clears the yml's and the shared context's entries").isEmpty();
			assertThat(routing.getHosts()).as("only what lies below the cleared key is hidden")
				.containsExactly("yml-a", "yml-b");
			assertThat(context.getEnvironment().getProperty("routing.routes.yml-route")).isNull();
			assertThat(context.getEnvironment().getProperty("routing.routes.shared")).isNull();
		}
	}

	@Test
	void aDottedNameIsAPathAtTheRootAndOneMapKeyInsideAnObject() throws Exception {
		write(app.writer(), "/config/orders", "{\"routing.limit\":5,\"routing\":{\"endpoints\":"
				+ "{\"db.example.com\":{\"port\":5432},\"cache\":{\"port\":6379}}}}");
		try (ConfigurableApplicationContext context = run()) {
			Routing routing = Binder.get(context.getEnvironment()).bind("routing", Bindable.of(Routing.class)).get();
			assertThat(routing.getLimit()).isEqualTo(5);
			assertThat(routing.getEndpoints()).containsOnlyKeys("db.example.com", "cache");
			assertThat(routing.getEndpoints().get("db.example.com").getPort()).isEqualTo(5432);
			assertThat(context.getEnvironment().getProperty("routing.endpoints[db.example.com].port")).isEqualTo("5432");
		}
	}

	private ConfigurableApplicationContext run(String... args) {
		List<String> all = new ArrayList<>(List.of("--" + app.zk().connectProperty(), "--zk.config.snapshot-dir=" + app.snapshots()));
		all.addAll(List.of(args));
		return ConfigTestSupport.run(all.toArray(String[]::new));
	}

	private static LogLevel level(LoggingSystem system, String logger) {
		var configuration = system.getLoggerConfiguration(logger);
		return (configuration != null) ? configuration.getConfiguredLevel() : null;
	}

	@ConfigurationProperties("routing")
	public static class Routing {

		private List<String> hosts = new ArrayList<>();

		private Map<String, String> routes = new LinkedHashMap<>();

		private Map<String, Endpoint> endpoints = new LinkedHashMap<>();

		private int limit;

		public Map<String, Endpoint> getEndpoints() {
			return this.endpoints;
		}

		public void setEndpoints(Map<String, Endpoint> endpoints) {
			this.endpoints = endpoints;
		}

		public int getLimit() {
			return this.limit;
		}

		public void setLimit(int limit) {
			this.limit = limit;
		}

		public List<String> getHosts() {
			return this.hosts;
		}

		public void setHosts(List<String> hosts) {
			this.hosts = hosts;
		}

		public Map<String, String> getRoutes() {
			return this.routes;
		}

		public void setRoutes(Map<String, String> routes) {
			this.routes = routes;
		}

	}

	public static class Endpoint {

		private int port;

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

	}

}
