package dev.zkspring.config;

import java.nio.file.Files;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.config.ConfigTestSupport.ShopProperties;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code zk.config.snapshot-enabled=false} (what the test kit sets): a snapshot on disk is never
 * read, and an application that loads and changes its configuration never writes one.
 */
class ZkConfigSnapshotSwitchTests {

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config")
		.with((runner) -> runner.withPropertyValues("zk.connection-timeout=1s", "zk.session-timeout=10s"));

	@Test
	void withSnapshotsOffNoSnapshotIsWrittenWhileLoadingAndChanging() throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"v1\"}}");
		app.runner().withPropertyValues("zk.config.snapshot-enabled=false").run((context) -> {
			assertThat(context.getBean(ShopProperties.class).getGreeting()).isEqualTo("v1");
			write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"v2\"}}");
			await().atMost(Duration.ofSeconds(20))
				.until(() -> "v2".equals(context.getEnvironment().getProperty("shop.greeting")));
		});
		assertThat(Files.exists(app.snapshots())).isTrue();
		try (var files = Files.list(app.snapshots())) {
			assertThat(files).isEmpty();
		}
	}

	@Test
	void withSnapshotsOffAPlantedSnapshotIsNotReadWhenZooKeeperIsDown() throws Exception {
		write(app.writer(), "/config/orders", "{\"shop\":{\"greeting\":\"stale\"}}");
		app.runner().run((context) -> assertThat(context).hasNotFailed());
		assertThat(ZkConfigSnapshotTests.snapshotFile(app.snapshots())).exists();
		app.zk().stopServer();
		try {
			app.runner().withPropertyValues("zk.config.snapshot-enabled=false", "zk.config.fail-fast=false")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(context.getBean(ShopProperties.class).getGreeting()).isNotEqualTo("stale");
					assertThat(context.getBean(ZkConfigStatus.class).getSource()).isEqualTo(ZkConfigStatus.Source.NONE);
				});
			app.runner().withPropertyValues("zk.config.snapshot-enabled=false").run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.hasMessageContaining("snapshots are off (zk.config.snapshot-enabled=false)");
			});
		}
		finally {
			app.zk().restartServer();
		}
	}

}
