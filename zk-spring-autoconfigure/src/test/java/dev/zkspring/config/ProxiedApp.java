package dev.zkspring.config;

import java.time.Duration;
import java.util.function.UnaryOperator;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.test.ZkAppFixture;
import dev.zkspring.test.ZooKeeperExtension;

import static org.awaitility.Awaitility.await;

/**
 * The fault tests' application reached through a {@link CuttableProxy}, opened before each test and
 * closed after it, so a test can take the connection away without touching the session (or expire the
 * session while it is away). Register it on an instance field, after the class's static
 * {@link ZkAppFixture}.
 */
final class ProxiedApp implements BeforeEachCallback, AfterEachCallback {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private final ZkAppFixture app;

	private final UnaryOperator<ApplicationContextRunner> more;

	private CuttableProxy proxy;

	ProxiedApp(ZkAppFixture app) {
		this(app, UnaryOperator.identity());
	}

	/** The fixture's application through the proxy, with more set on it (beans, properties). */
	ProxiedApp(ZkAppFixture app, UnaryOperator<ApplicationContextRunner> more) {
		this.app = app;
		this.more = more;
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		this.proxy = CuttableProxy.to(this.app.zk().connectString());
	}

	@Override
	public void afterEach(ExtensionContext context) {
		this.proxy.close();
	}

	/** Where the application connects: the proxy. */
	String connectString() {
		return this.proxy.connectString();
	}

	/** The fixture's application, connected through the proxy, with a session that outlives a short cut. */
	ApplicationContextRunner runner() {
		return this.more.apply(this.app.runner()
			.withPropertyValues("zk.connect=" + this.proxy.connectString(), "zk.session-timeout=30s"));
	}

	/** Closes every connection and refuses new ones until {@link #heal()}. */
	void cut() {
		this.proxy.cut();
	}

	/** Takes the connection away and waits until this client has noticed (its session still alive). */
	void cutUntilDisconnected(CuratorFramework client) {
		this.proxy.cut();
		await().atMost(WAIT).until(() -> !client.getZookeeperClient().isConnected());
	}

	/** Takes the connection away, waits until the client has noticed, then expires its session on the server. */
	void cutAndExpire(CuratorFramework client) throws Exception {
		ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
		long session = zooKeeper.getSessionId();
		byte[] password = zooKeeper.getSessionPasswd();
		cutUntilDisconnected(client);
		ZooKeeperExtension.expireSession(this.app.zk().connectString(), session, password);
	}

	/** Lets connections through again: the client reconnects. */
	void heal() {
		this.proxy.heal();
	}

	/** The session the client holds now. */
	static long session(CuratorFramework client) throws Exception {
		return client.getZookeeperClient().getZooKeeper().getSessionId();
	}

}
