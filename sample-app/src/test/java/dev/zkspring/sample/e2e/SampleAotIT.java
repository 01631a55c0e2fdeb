package dev.zkspring.sample.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import tools.jackson.core.type.TypeReference;

import dev.zkspring.embedded.EmbeddedZooKeeper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample as processed by Boot's {@code process-aot} goal (the {@code aot-it-process} execution in
 * sample-app/pom.xml, on a copy of its classes) and run on the JVM with {@code -Dspring.aot.enabled=true}:
 * it loads its configuration from ZooKeeper, refreshes it, takes a lock and runs its leader job, as
 * without AOT. The ZooKeeper server runs in this JVM, so the configuration is there before the start.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class SampleAotIT {

	static EmbeddedZooKeeper server;

	static SampleProcess app;

	@BeforeAll
	static void start() throws Exception {
		Path dir = Files.createDirectories(Paths.get(SampleProcess.required("sample.e2e-dir"))).toAbsolutePath()
			.resolve("aot-" + UUID.randomUUID());
		server = EmbeddedZooKeeper.start(SampleProcess.freePort(), dir.resolve("zookeeper"));
		writeConfig("{\"sample\":{\"greeting\":\"loaded at startup\"}}");
		Path processed = Paths.get(SampleProcess.required("sample.aot-dir"), "classes");
		assertThat(processed.resolve("dev/zkspring/sample/SampleApplication__ApplicationContextInitializer.class"))
			.as("process-aot output (run the package phase first)")
			.isRegularFile();
		// the processed classes before the jar's own: Boot's launcher puts loader.path first
		List<String> launch = List.of("-Dspring.aot.enabled=true", "-Dloader.path=" + processed, "-cp",
				SampleProcess.jar().toString(), "org.springframework.boot.loader.launch.PropertiesLauncher");
		app = SampleProcess.start("aot", SampleProcess.freePort(), launch,
				List.of("--sample.data-dir=" + dir.resolve("db"), "--zk.embedded.enabled=false",
						"--zk.connect=" + server.connectString(), "--sample.job.interval=200ms",
						"--sample.job.duration=50ms"));
		app.awaitReady(Duration.ofSeconds(90));
	}

	@AfterAll
	static void stop() throws Exception {
		if (app != null) {
			app.stop();
		}
		if (server != null) {
			server.close();
		}
	}

	@Test
	void runsTheAotGeneratedContext() throws Exception {
		assertThat(app.output()).contains("Starting AOT-processed SampleApplication");
	}

	@Test
	void loadsItsConfigurationAndRefreshesIt() throws Exception {
		assertThat(app.getJson("/config", new TypeReference<Map<String, Object>>() { }))
			.containsEntry("sample.greeting", "loaded at startup");
		assertThat(app.status()).containsEntry("configSource", "ZOOKEEPER");
		writeConfig("{\"sample\":{\"greeting\":\"refreshed\"}}");
		Awaitility.await("refreshed greeting")
			.atMost(Duration.ofSeconds(10))
			.pollInterval(Duration.ofMillis(100))
			.untilAsserted(() -> assertThat(app.getJson("/config", new TypeReference<Map<String, Object>>() { }))
				.containsEntry("sample.greeting", "refreshed"));
	}

	@Test
	void deductsUnderItsZkLock() throws Exception {
		assertThat(app.send("PUT", "/stock/aot?quantity=3").statusCode()).isEqualTo(200);
		assertThat(app.send("POST", "/stock/aot/deduct").body()).contains("\"quantity\":2");
		// the fleet view lists what the lock interceptor did
		Awaitility.await("the lock in the fleet view")
			.atMost(Duration.ofSeconds(10))
			.until(() -> app.send("GET", "/actuator/zookeeper/fleet").body().contains("\"kind\":\"lock\""));
	}

	@Test
	void leadsAndRunsItsLeaderJob() throws Exception {
		String id = app.id();
		Awaitility.await("a finished run of the leader job by " + id)
			.atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(200))
			.until(() -> app.getJson("/jobs/runs", new TypeReference<List<Map<String, Object>>>() { })
				.stream()
				.anyMatch((run) -> id.equals(run.get("INSTANCE")) && run.get("ENDED_AT") != null));
		assertThat(app.status()).containsEntry("isLeader", true);
		assertThat(app.output()).doesNotContain("threw an unhandled Exception");
	}

	/** Writes {@code /config/sample} as an operator would. */
	private static void writeConfig(String document) throws Exception {
		try (CuratorFramework zk = CuratorFrameworkFactory.newClient(server.connectString(), new RetryOneTime(100))) {
			zk.start();
			assertThat(zk.blockUntilConnected(10, TimeUnit.SECONDS)).as("connected to ZooKeeper").isTrue();
			zk.create().orSetData().creatingParentsIfNeeded()
				.forPath("/config/sample", document.getBytes(StandardCharsets.UTF_8));
		}
	}

}
