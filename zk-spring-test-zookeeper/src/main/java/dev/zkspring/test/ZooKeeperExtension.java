package dev.zkspring.test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real ZooKeeper for JUnit 5 tests: one {@link TestingServer}, or a 3-node {@link TestingCluster},
 * started before the test class and closed after it, with the faults every capability is tested
 * against (server stopped and restarted, session expiry, the ensemble's leader killed). Part of
 * {@code zk-spring-test} (artifact {@code zk-spring-test-zookeeper}, which needs no Spring); use it for
 * tests that need faults or a server of their own, and {@code @SpringBootTest} alone for the shared
 * in-process server the test kit gives every Spring test context.
 *
 * <pre>
 * &#64;RegisterExtension
 * static final ZooKeeperExtension zk = ZooKeeperExtension.server();   // or ensemble()
 *
 * &#64;DynamicPropertySource
 * static void zk(DynamicPropertyRegistry registry) {
 *     registry.add("zk.connect", zk::connectString);
 * }
 * </pre>
 *
 * Register it on a {@code static} field so one server serves the whole class (an instance field gets
 * one per test); clients from {@link #newClient()} are closed after each test.
 */
public final class ZooKeeperExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
		AfterEachCallback {

	private final int ensembleSize;

	private TestingServer server;

	private TestingCluster cluster;

	private boolean perTest;

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	private ZooKeeperExtension(int ensembleSize) {
		this.ensembleSize = ensembleSize;
	}

	/** One standalone server. */
	public static ZooKeeperExtension server() {
		return new ZooKeeperExtension(1);
	}

	/** A 3-node ensemble, for tests that lose a server or the ensemble's leader. */
	public static ZooKeeperExtension ensemble() {
		return new ZooKeeperExtension(3);
	}

	@Override
	public void beforeAll(ExtensionContext context) throws Exception {
		start();
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		if (this.server == null && this.cluster == null) {
			this.perTest = true;
			start();
		}
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		for (CuratorFramework client : this.clients) {
			client.close();
		}
		this.clients.clear();
		if (this.perTest) {
			close();
		}
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		close();
	}

	private void start() throws Exception {
		if (this.ensembleSize == 1) {
			this.server = new TestingServer(true);
		}
		else {
			this.cluster = new TestingCluster(distinctSpecs(this.ensembleSize));
			this.cluster.start();
		}
	}

	/**
	 * Specs whose nine ports are all different: curator-test draws each port on its own and can draw one
	 * twice (seen in CI: two servers on one client port, and the cluster refused to start).
	 */
	private static List<InstanceSpec> distinctSpecs(int size) {
		Set<Integer> used = new HashSet<>();
		List<InstanceSpec> specs = new ArrayList<>();
		for (int id = 1; id <= size; id++) {
			int[] ports = new int[3];
			for (int i = 0; i < ports.length; i++) {
				int port;
				do {
					port = InstanceSpec.getRandomPort();
				}
				while (!used.add(port));
				ports[i] = port;
			}
			specs.add(new InstanceSpec(null, ports[0], ports[1], ports[2], true, id));
		}
		return specs;
	}

	private void close() throws IOException {
		if (this.server != null) {
			this.server.close();
			this.server = null;
		}
		if (this.cluster != null) {
			this.cluster.close();
			this.cluster = null;
		}
	}

	/** Where to connect, as {@code zk.connect} expects it. */
	public String connectString() {
		return (this.server != null) ? this.server.getConnectString() : this.cluster.getConnectString();
	}

	/** A property line for {@code ApplicationContextRunner.withPropertyValues}. */
	public String connectProperty() {
		return "zk.connect=" + connectString();
	}

	/** A started, connected client of its own session, closed after the test. */
	public CuratorFramework newClient() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString())
			.sessionTimeoutMs(10_000)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		this.clients.add(client);
		client.start();
		if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
			throw new IllegalStateException("test client did not connect to " + connectString());
		}
		return client;
	}

	/** Stop the standalone server, keeping its port and data for {@link #restartServer()}. */
	public void stopServer() throws IOException {
		requireServer().stop();
	}

	/** Start the standalone server again on the same port with the same data. */
	public void restartServer() throws Exception {
		requireServer().restart();
	}

	/** Kill the ensemble's current leader and return it, for {@link #restart(InstanceSpec)}. */
	public InstanceSpec killLeader() throws Exception {
		InstanceSpec leader = leader();
		this.cluster.killServer(leader);
		return leader;
	}

	/** Start a killed ensemble member again. */
	public void restart(InstanceSpec instance) throws Exception {
		this.cluster.restartServer(instance);
	}

	/** The ensemble member that currently leads, asked of each server with the {@code srvr} command. */
	public InstanceSpec leader() throws IOException {
		requireCluster();
		for (InstanceSpec instance : this.cluster.getInstances()) {
			if (srvr(instance.getPort()).contains("Mode: leader")) {
				return instance;
			}
		}
		throw new IllegalStateException("no ensemble member reports itself leader");
	}

	/**
	 * Expire this client's session on the server, as a partition longer than the session timeout
	 * would: a second connection takes the session over and closes it, so the server ends the session
	 * and deletes its ephemeral nodes at once, and the client learns it when it reconnects.
	 */
	public static void expireSession(CuratorFramework client) throws Exception {
		ZooKeeper zooKeeper = client.getZookeeperClient().getZooKeeper();
		expireSession(client.getZookeeperClient().getCurrentConnectionString(), zooKeeper.getSessionId(),
				zooKeeper.getSessionPasswd());
	}

	/**
	 * Expire a session by its id and password through the servers at {@code connectString}: for a
	 * client that is cut off (behind a proxy that drops its traffic), whose own connection string
	 * leads nowhere.
	 */
	public static void expireSession(String connectString, long sessionId, byte[] password) throws Exception {
		CountDownLatch connected = new CountDownLatch(1);
		ZooKeeper twin = new ZooKeeper(connectString, 10_000, (event) -> {
			if (event.getState() == Watcher.Event.KeeperState.SyncConnected) {
				connected.countDown();
			}
		}, sessionId, password);
		try {
			if (!connected.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("could not take over session 0x" + Long.toHexString(sessionId));
			}
		}
		finally {
			twin.close();
		}
	}

	/**
	 * ZooKeeper's client-side {@code injectSessionExpiration}: the client sees its session expire at once,
	 * while the server keeps it, and its ephemeral nodes, until the session times out.
	 */
	public static void injectSessionExpiration(CuratorFramework client) throws Exception {
		client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
	}

	private TestingServer requireServer() {
		if (this.server == null) {
			throw new IllegalStateException("this is not a standalone server extension");
		}
		return this.server;
	}

	private void requireCluster() {
		if (this.cluster == null) {
			throw new IllegalStateException("this is not an ensemble extension");
		}
	}

	private static String srvr(int port) {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(2_000);
			OutputStream out = socket.getOutputStream();
			out.write("srvr".getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
		}
		catch (IOException ex) {
			return "";
		}
	}

}
