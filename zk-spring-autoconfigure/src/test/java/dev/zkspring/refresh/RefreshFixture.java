package dev.zkspring.refresh;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.FileSystemUtils;

import dev.zkspring.test.ZooKeeperExtension;

/**
 * The per-test setup the refresh tests share, so each class states only what differs: a client that
 * writes the znodes, a fresh snapshot directory, the base runner; {@code /config} is removed after
 * each test. Register it as an instance field after the class's static {@link ZooKeeperExtension}.
 */
final class RefreshFixture implements BeforeEachCallback, AfterEachCallback {

	private final ZooKeeperExtension zk;

	private CuratorFramework writer;

	private Path snapshots;

	RefreshFixture(ZooKeeperExtension zk) {
		this.zk = zk;
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		this.writer = this.zk.newClient();
		this.snapshots = Files.createTempDirectory("zk-refresh-snapshots");
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		try {
			RefreshTestSupport.deleteAll(this.writer, "/config");
		}
		finally {
			FileSystemUtils.deleteRecursively(this.snapshots);
		}
	}

	/** The client that writes the test's znodes (closed by the {@link ZooKeeperExtension}). */
	CuratorFramework writer() {
		return this.writer;
	}

	/** The refresh tests' application, with this test's snapshot directory. */
	ApplicationContextRunner runner() {
		return RefreshTestSupport.runner(this.zk, this.snapshots);
	}

}
