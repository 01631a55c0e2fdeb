package dev.zkspring.client;

import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * ZooKeeper's client logs whole replies (documents, secrets) at DEBUG; zk-spring cannot redact them, so
 * it warns once when that logger is that verbose. No client is started: the warning comes with the build.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZooKeeperLoggingTests {

	private static final String WARNING = "org.apache.zookeeper.ClientCnxn logs at DEBUG or finer";

	private final LoggingSystem loggingSystem = LoggingSystem.get(getClass().getClassLoader());

	@BeforeEach
	@AfterEach
	void reset() {
		ZooKeeperLogging.forgetWarning();
		this.loggingSystem.setLogLevel(ZooKeeperLogging.CLIENT_LOGGER, null);
	}

	@Test
	void warnsOnceWhenZooKeepersClientLogsAtDebug(CapturedOutput output) {
		this.loggingSystem.setLogLevel(ZooKeeperLogging.CLIENT_LOGGER, LogLevel.DEBUG);
		build().close();
		build().close();
		assertThat(output.getOut().split(WARNING, -1)).hasSize(2);
		assertThat(output).contains("logging.level.org.apache.zookeeper=INFO");
	}

	@Test
	void warnsWhenZooKeepersClientLogsAtTrace(CapturedOutput output) {
		this.loggingSystem.setLogLevel("org.apache.zookeeper", LogLevel.TRACE);
		try {
			build().close();
		}
		finally {
			this.loggingSystem.setLogLevel("org.apache.zookeeper", null);
		}
		assertThat(output).contains(WARNING);
	}

	@Test
	void saysNothingAtInfo(CapturedOutput output) {
		this.loggingSystem.setLogLevel(ZooKeeperLogging.CLIENT_LOGGER, LogLevel.INFO);
		build().close();
		assertThat(output).doesNotContain(WARNING);
	}

	private static org.apache.curator.framework.CuratorFramework build() {
		return ZkClientFactory.create(new ZkClientProperties().toClientSettings(List.of("/locks", "/leader")), "127.0.0.1:1", List.of());
	}

}
