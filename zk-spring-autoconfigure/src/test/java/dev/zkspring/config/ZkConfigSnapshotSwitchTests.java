package dev.zkspring.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZooKeeperExtension;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code zk.config.snapshot-enabled=false} (what the test kit sets): a snapshot on disk is never
 * read, and an application that loads and changes its configuration never writes one.
 */
class ZkConfigSnapshotSwitchTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@TempDir
	Path snapshots;

	private CuratorFramework writer;

	private ApplicationContextRunner runner;

	@BeforeEach
	void setUp() throws Exception {
		this.writer = zk.newClient();
		this.runner = ConfigTestSupport.runner(zk, this.snapshots)
			.withPropertyValues("zk.connection-timeout=1s", "zk.session-timeout=10s");
	}

	@AfterEach
	void cleanUp() throws Exception {
		ConfigTestSupport.deleteAll(this.writer, "/config");
	}

	@Test
	void withSnapshotsOffNoSnapshotIsWrittenWhileLoadingAndChanging() throws Exception {
		write(this.writer, "/config/orders", "{\"shop\":{\"greeting\":\"v1\"}}");
		this.runner.withPropertyValues("zk.config.snapshot-enabled=false").run((context) -> {
			assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("v1");
			write(this.writer, "/config/orders", "{\"shop\":{\"greeting\":\"v2\"}}");
			await().atMost(Duration.ofSeconds(20))
				.until(() -> "v2".equals(context.getEnvironment().getProperty("shop.greeting")));
		});
		assertThat(Files.exists(this.snapshots)).isTrue();
		try (var files = Files.list(this.snapshots)) {
			assertThat(files).isEmpty();
		}
	}

	@Test
	void withSnapshotsOffAPlantedSnapshotIsNotReadWhenZooKeeperIsDown() throws Exception {
		write(this.writer, "/config/orders", "{\"shop\":{\"greeting\":\"stale\"}}");
		this.runner.run((context) -> assertThat(context).hasNotFailed());
		assertThat(ZkConfigSnapshotTests.snapshotFile(this.snapshots)).exists();
		zk.stopServer();
		try {
			this.runner.withPropertyValues("zk.config.snapshot-enabled=false", "zk.config.fail-fast=false")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(context.getBean(ShopProperties.class).getGreeting()).isNotEqualTo("stale");
					assertThat(context.getBean(ZkConfigStatus.class).getSource()).isEqualTo(ZkConfigStatus.Source.NONE);
				});
			this.runner.withPropertyValues("zk.config.snapshot-enabled=false").run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.hasMessageContaining("snapshots are off (zk.config.snapshot-enabled=false)");
			});
		}
		finally {
			zk.restartServer();
		}
	}

}
