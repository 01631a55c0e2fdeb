package dev.zkspring.test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.FileSystemUtils;

/**
 * The setup every kind of application test repeated, in one place so a test class states only what
 * differs: a real ZooKeeper for the class (a {@link ZooKeeperExtension}), and for each test a client that
 * writes the znodes, a fresh snapshot directory, the kind's runner (config, refresh, actuate, leader, job
 * apps: each kind's support class gives a {@code runner(ZooKeeperExtension, Path)}), and the znodes the
 * tests write removed afterwards. Register it once, on a static field:
 *
 * <pre>
 * &#64;RegisterExtension
 * static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config");
 * </pre>
 */
public final class ZkAppFixture implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
		AfterEachCallback {

	private final ZooKeeperExtension zk;

	private final BiFunction<ZooKeeperExtension, Path, ApplicationContextRunner> runner;

	private final List<String> cleaned;

	private CuratorFramework writer;

	private Path snapshots;

	private ZkAppFixture(ZooKeeperExtension zk, BiFunction<ZooKeeperExtension, Path, ApplicationContextRunner> runner,
			List<String> cleaned) {
		this.zk = zk;
		this.runner = runner;
		this.cleaned = cleaned;
	}

	/** One standalone server for the class, and the kind's runner. */
	public static ZkAppFixture server(BiFunction<ZooKeeperExtension, Path, ApplicationContextRunner> runner) {
		return new ZkAppFixture(ZooKeeperExtension.server(), runner, List.of());
	}

	/** A 3-node ensemble for the class, and the kind's runner. */
	public static ZkAppFixture ensemble(BiFunction<ZooKeeperExtension, Path, ApplicationContextRunner> runner) {
		return new ZkAppFixture(ZooKeeperExtension.ensemble(), runner, List.of());
	}

	/** One server, for tests that build their runner themselves (or need none). */
	public static ZkAppFixture server() {
		return server((zk, snapshots) -> new ApplicationContextRunner().withPropertyValues(zk.connectProperty()));
	}

	/** The same fixture, removing these znodes (and their children) after each test. */
	public ZkAppFixture cleaning(String... paths) {
		return new ZkAppFixture(this.zk, this.runner, List.of(paths));
	}

	/** The same fixture, whose runner is this one with more set on it (properties, beans, configuration). */
	public ZkAppFixture with(UnaryOperator<ApplicationContextRunner> more) {
		return new ZkAppFixture(this.zk, (zk, snapshots) -> more.apply(this.runner.apply(zk, snapshots)),
				this.cleaned);
	}

	@Override
	public void beforeAll(ExtensionContext context) throws Exception {
		this.zk.beforeAll(context);
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		this.zk.beforeEach(context);
		this.writer = this.zk.newClient();
		this.snapshots = Files.createTempDirectory("zk-app-snapshots");
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		try {
			for (String path : this.cleaned) {
				if (this.writer.checkExists().forPath(path) != null) {
					this.writer.delete().deletingChildrenIfNeeded().forPath(path);
				}
			}
		}
		finally {
			try {
				this.zk.afterEach(context);
			}
			finally {
				FileSystemUtils.deleteRecursively(this.snapshots);
			}
		}
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		this.zk.afterAll(context);
	}

	/** The class's server: its connect string, new clients, faults. */
	public ZooKeeperExtension zk() {
		return this.zk;
	}

	/** The client that writes this test's znodes (closed after the test). */
	public CuratorFramework writer() {
		return this.writer;
	}

	/** This test's snapshot directory (removed after the test). */
	public Path snapshots() {
		return this.snapshots;
	}

	/** The kind's application, on this server, with this test's snapshot directory. */
	public ApplicationContextRunner runner() {
		return this.runner.apply(this.zk, this.snapshots);
	}

}
