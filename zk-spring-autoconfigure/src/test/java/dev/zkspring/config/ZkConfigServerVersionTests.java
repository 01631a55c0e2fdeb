package dev.zkspring.config;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkStartupException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A server older than the config center's minimum (3.6: multi-reads and persistent watches) is refused
 * at startup naming its version and the minimum, and an instance that started from its snapshot before
 * reaching such a server says so once, instead of cutting its connection again and again.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigServerVersionTests {

	@TempDir
	Path dir;

	@Test
	void startupOnAServerBefore36IsRefusedNamingItsVersionAndTheMinimum() throws Exception {
		try (ZooKeeperProcess server = ZooKeeperProcess.version35(this.dir.resolve("server"), 0)) {
			runner(server.connectString()).run((context) -> {
				assertThat(context).hasFailed();
				Throwable failure = context.getStartupFailure();
				while (!(failure instanceof ZkStartupException) && failure.getCause() != null) {
					failure = failure.getCause();
				}
				assertThat(failure).isInstanceOf(ZkStartupException.class);
				ZkStartupException refusal = (ZkStartupException) failure;
				assertThat(refusal.getDescription()).contains("is version 3.5.10", "needs ZooKeeper 3.6.0 or later",
						server.connectString());
				assertThat(refusal.getAction()).contains("Upgrade the ensemble");
			});
		}
	}

	@Test
	void anInstanceOnItsSnapshotThatReachesAServerBefore36SaysSoOnce(CapturedOutput output) throws Exception {
		int port = ZooKeeperProcess.freePort();
		String address = "127.0.0.1:" + port;
		// a snapshot first, from a server of today at the same address
		try (ZooKeeperProcess today = ZooKeeperProcess.fromTestClasspath(this.dir.resolve("today"), port)) {
			runner(address).run((context) -> assertThat(context).hasNotFailed());
		}
		runner(address).withPropertyValues("zk.connection-timeout=1s", "zk.config.fail-fast=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(ZkConfigStatus.class).getSource()).isEqualTo(ZkConfigStatus.Source.SNAPSHOT);
			try (ZooKeeperProcess old = ZooKeeperProcess.version35(this.dir.resolve("old"), port)) {
				await().atMost(Duration.ofSeconds(20))
					.until(() -> output.getOut().contains("is version 3.5.10; zk-spring's configuration needs"));
				assertThat(output.getOut().split("is version 3.5.10", -1)).as("the refusal, said once").hasSize(2);
				assertThat(context.getBean(ZkConfigStatus.class).getSource()).isEqualTo(ZkConfigStatus.Source.SNAPSHOT);
			}
		});
	}

	private ApplicationContextRunner runner(String connectString) {
		return ConfigTestSupport.runner(connectString, this.dir.resolve("snapshots")).withPropertyValues("zk.session-timeout=10s");
	}

}
