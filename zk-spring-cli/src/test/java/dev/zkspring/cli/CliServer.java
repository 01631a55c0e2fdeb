package dev.zkspring.cli;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import dev.zkspring.test.ZooKeeperExtension;

/**
 * The setup the tool's tests repeated, in one place: a real ZooKeeper for the class, a client of each
 * test's own to look at what the tool wrote, and the znodes the tool writes removed after each test.
 * Register it once, on a static field (the server starts before the class): {@code static final CliServer zk = CliServer.server().cleaning("/config")}.
 */
final class CliServer implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

	private final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final List<String> cleaned;

	private CuratorFramework client;

	private CliServer(List<String> cleaned) {
		this.cleaned = cleaned;
	}

	/** One standalone server for the class. */
	static CliServer server() {
		return new CliServer(List.of());
	}

	/** The same fixture, removing these znodes (and their children) after each test. */
	CliServer cleaning(String... paths) {
		return new CliServer(List.of(paths));
	}

	@Override
	public void beforeAll(ExtensionContext context) throws Exception {
		this.zk.beforeAll(context);
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		// the server is the class's, started in beforeAll: only the client is the test's
		this.client = this.zk.newClient();
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		try {
			for (String path : this.cleaned) {
				if (this.client.checkExists().forPath(path) != null) {
					this.client.delete().deletingChildrenIfNeeded().forPath(path);
				}
			}
		}
		finally {
			this.zk.afterEach(context);
		}
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		this.zk.afterAll(context);
	}

	/** Where the tool connects. */
	String connectString() {
		return this.zk.connectString();
	}

	/** A property line for an application the test starts beside the tool. */
	String connectProperty() {
		return this.zk.connectProperty();
	}

	/** This test's client (closed after the test). */
	CuratorFramework client() {
		return this.client;
	}

	/** Another client of its own session, closed after the test. */
	CuratorFramework newClient() throws InterruptedException {
		return this.zk.newClient();
	}

	/** The shop application's configuration metadata, copied into the directory (once), for {@code --against}. */
	static Path shopMetadata(Path dir) throws Exception {
		Path metadata = dir.resolve("spring-configuration-metadata.json");
		if (!Files.exists(metadata)) {
			try (InputStream in = CliServer.class.getResourceAsStream("/shop-metadata.json")) {
				Files.copy(in, metadata);
			}
		}
		return metadata;
	}

}
