package dev.zkspring.test;

import java.nio.charset.StandardCharsets;
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

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.FileSystemUtils;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.config.ZkConfigInitializer;

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

	private final List<String> systemProperties;

	private CuratorFramework writer;

	private Path snapshots;

	private ZkAppFixture(ZooKeeperExtension zk, BiFunction<ZooKeeperExtension, Path, ApplicationContextRunner> runner,
			List<String> cleaned, List<String> systemProperties) {
		this.zk = zk;
		this.runner = runner;
		this.cleaned = cleaned;
		this.systemProperties = systemProperties;
	}

	/** One standalone server for the class, and the kind's runner. */
	public static ZkAppFixture server(BiFunction<ZooKeeperExtension, Path, ApplicationContextRunner> runner) {
		return new ZkAppFixture(ZooKeeperExtension.server(), runner, List.of(), List.of());
	}

	/** A 3-node ensemble for the class, and the kind's runner. */
	public static ZkAppFixture ensemble(BiFunction<ZooKeeperExtension, Path, ApplicationContextRunner> runner) {
		return new ZkAppFixture(ZooKeeperExtension.ensemble(), runner, List.of(), List.of());
	}

	/**
	 * The usual user application: the config center's initializer, {@link ZkAutoConfiguration} and these
	 * auto-configurations, named {@code orders}, on the class's server with the test's snapshot directory.
	 */
	public static BiFunction<ZooKeeperExtension, Path, ApplicationContextRunner> app(Class<?>... autoConfigurations) {
		return (zk, snapshots) -> new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
			.withConfiguration(AutoConfigurations.of(autoConfigurations))
			.withPropertyValues(zk.connectProperty(), "zk.config.snapshot-dir=" + snapshots,
					"spring.application.name=orders");
	}

	/** One server, for tests that build their runner themselves (or need none). */
	public static ZkAppFixture server() {
		return server((zk, snapshots) -> new ApplicationContextRunner().withPropertyValues(zk.connectProperty()));
	}

	/** The same fixture, removing these znodes (and their children) after each test. */
	public ZkAppFixture cleaning(String... paths) {
		return new ZkAppFixture(this.zk, this.runner, List.of(paths), this.systemProperties);
	}

	/** The same fixture, whose runner is this one with more set on it (properties, beans, configuration). */
	public ZkAppFixture with(UnaryOperator<ApplicationContextRunner> more) {
		return new ZkAppFixture(this.zk, (zk, snapshots) -> more.apply(this.runner.apply(zk, snapshots)),
				this.cleaned, this.systemProperties);
	}

	/** The same fixture, clearing these system properties (which tests set) after each test. */
	public ZkAppFixture clearing(String... systemProperties) {
		return new ZkAppFixture(this.zk, this.runner, this.cleaned, List.of(systemProperties));
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
		this.systemProperties.forEach(System::clearProperty);
		try {
			for (String path : this.cleaned) {
				deleteAll(this.writer, path);
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

	/** Writes a document to a znode as an operator would: created with its parents, or its data set. */
	public void write(String path, String json) throws Exception {
		write(this.writer, path, json.getBytes(StandardCharsets.UTF_8));
	}

	/** Writes data to a znode with this client: created with its parents, or its data set. */
	public static void write(CuratorFramework client, String path, byte[] data) throws Exception {
		if (client.checkExists().forPath(path) == null) {
			client.create().creatingParentsIfNeeded().forPath(path, data);
		}
		else {
			client.setData().forPath(path, data);
		}
	}

	/** Removes a znode and everything below it, if it is there. */
	public static void deleteAll(CuratorFramework client, String path) throws Exception {
		if (client.checkExists().forPath(path) != null) {
			client.delete().deletingChildrenIfNeeded().forPath(path);
		}
	}

	/** The kind's application, on this server, with this test's snapshot directory. */
	public ApplicationContextRunner runner() {
		return this.runner.apply(this.zk, this.snapshots);
	}

}
