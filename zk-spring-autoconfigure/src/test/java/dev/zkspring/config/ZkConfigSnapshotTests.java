package dev.zkspring.config;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ConfigTestSupport.EventRecorder;
import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The last-known-good snapshot: written after each accepted load, used when ZooKeeper is down at startup. */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigSnapshotTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config")
		.with((runner) -> runner.withPropertyValues("zk.connection-timeout=1s", "zk.session-timeout=10s"));

	private static final Duration WAIT = Duration.ofSeconds(20);

	@Test
	void theSnapshotIsOwnerOnlyAndFollowsEveryAcceptedChange() throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"v1\"}}");
		Path[] written = new Path[1];
		app.runner().withBean(EventRecorder.class, EventRecorder::new).run((context) -> {
			Path file = snapshotFile(app.snapshots());
			written[0] = file;
			assertThat(Files.readString(file)).contains("\"shop.greeting\":\"v1\"").contains("/config/orders");
			assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
			write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"v2\"}}");
			await().atMost(WAIT).until(() -> Files.readString(file).contains("\"shop.greeting\":\"v2\""));
			write(app.writer(), "/config/orders", BadDocument.MALFORMED_JSON.data());
			await().atMost(WAIT).until(() -> !context.getBean(EventRecorder.class).rejections.isEmpty());
		});
		Path file = written[0];
		assertThat(Files.readString(file)).contains("\"shop.greeting\":\"v2\"").doesNotContain(BadDocument.SECRET);
		try (var files = Files.list(app.snapshots())) {
			assertThat(files).as("no temporary file left behind").containsExactly(file);
		}
	}

	@Test
	void aSnapshotDirectoryItCreatesIsOwnerOnly() throws Exception {
		Path directory = app.snapshots().resolve("new/dir");
		app.runner().withPropertyValues("zk.config.snapshot-dir=" + directory, "spring.profiles.active=eu")
			.run((context) -> assertThat(snapshotFile(directory).getFileName().toString()).matches("orders,eu-[0-9a-f]{12}\\.json"));
		assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(directory))).isEqualTo("rwx------");
	}

	@Test
	void withZooKeeperDownTheApplicationStartsFromItsSnapshotAndReconcilesWhenItComesBack(CapturedOutput output)
			throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"from-snapshot\"}}");
		app.runner().run((context) -> assertThat(context).hasNotFailed());
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"newer\"}}");
		app.zk().stopServer();
		boolean[] restarted = new boolean[1];
		try {
			app.runner().run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("from-snapshot");
				ZkConfigStatus status = context.getBean(ZkConfigStatus.class);
				assertThat(status.getSource()).isEqualTo(ZkConfigStatus.Source.SNAPSHOT);
				assertThat(status.isDegraded()).isTrue();
				assertThat(output).contains("could not be reached within PT1S (zk.connection-timeout); starting from "
						+ "the last-known-good configuration snapshot " + snapshotFile(app.snapshots()));
				app.zk().restartServer();
				restarted[0] = true;
				await().atMost(WAIT).until(() -> !status.isDegraded());
				assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("newer");
			});
		}
		finally {
			if (!restarted[0]) {
				app.zk().restartServer();
			}
		}
	}

	@Test
	void withZooKeeperDownAndNoSnapshotFailFastFailsTheStartupNamingTheConnectStringAndTheSnapshot() throws Exception {
		String connect = "127.0.0.1:" + freePort();
		app.runner().withPropertyValues("zk.connect=" + connect).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).isInstanceOf(ZkStartupException.class);
			ZkStartupException failure = (ZkStartupException) context.getStartupFailure();
			assertThat(failure.getDescription()).contains("'" + connect + "'")
				.contains("zk.connection-timeout")
				.contains("no configuration snapshot at " + app.snapshots().resolve("orders-"));
			assertThat(failure.getAction()).contains("zk.config.fail-fast=false");
		});
	}

	@Test
	void withZooKeeperDownNoSnapshotAndFailFastOffTheApplicationStartsEmptyAndDegraded(CapturedOutput output)
			throws Exception {
		app.runner().withPropertyValues("zk.connect=127.0.0.1:" + freePort(), "zk.config.fail-fast=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("default");
				assertThat(context.getBean(ZkConfigStatus.class).getSource()).isEqualTo(ZkConfigStatus.Source.NONE);
				assertThat(context).hasSingleBean(CuratorFramework.class);
			});
		assertThat(output).contains("starting without ZooKeeper's configuration (zk.config.fail-fast=false)");
	}

	/** The one snapshot file in a directory, named by the application and a digest of where it reads from. */
	static Path snapshotFile(Path directory) throws IOException {
		try (var files = Files.list(directory)) {
			return files.filter((file) -> file.getFileName().toString().endsWith(".json")).findFirst().orElseThrow();
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

}
