package dev.zkspring.test;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.jspecify.annotations.Nullable;

import dev.zkspring.embedded.EmbeddedZooKeeper;

/**
 * The one in-process server of the test JVM: the library's embedded server (loopback, a free port, a
 * temporary data directory), started on first use and stopped when the JVM exits. Each test context
 * gets a chroot of its own on it.
 */
final class SharedZooKeeper {

	private static final Log logger = LogFactory.getLog(SharedZooKeeper.class);

	private static final AtomicInteger contexts = new AtomicInteger();

	private static @Nullable EmbeddedZooKeeper server;

	private static boolean announced;

	private SharedZooKeeper() {
	}

	/** The server's connect string, starting it on first use. */
	static synchronized String connectString() {
		EmbeddedZooKeeper running = server;
		if (running == null) {
			running = EmbeddedZooKeeper.start(0, null);
			Runtime.getRuntime().addShutdownHook(new Thread(running::close, "zk-test-server-shutdown"));
			server = running;
		}
		return running.connectString();
	}

	/**
	 * Say once that the server runs: called once logging is set up (Boot drops what is logged before, which is
	 * when the server starts).
	 */
	static synchronized void announceOnce() {
		EmbeddedZooKeeper running = server;
		if (running != null && !announced) {
			announced = true;
			logger.info("Started the test kit's shared ZooKeeper at " + running.connectString()
					+ "; every test context of this JVM gets a chroot of its own on it");
		}
	}

	/** A connect string with a new, empty chroot: a clean ZooKeeper for one test context. */
	static String newChroot() {
		String connect = connectString();
		String chroot = "/zk-test-" + contexts.incrementAndGet();
		try (CuratorFramework client = connected(connect, null)) {
			client.create().forPath(chroot);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not create the test context's chroot " + chroot
					+ " on the shared ZooKeeper at " + connect, ex);
		}
		return connect + chroot;
	}

	/** A started client, connected within 10 s, for the kit's own writes; the caller closes it. */
	static CuratorFramework connected(String connect, @Nullable String namespace) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connect)
			.namespace(namespace)
			.retryPolicy(new RetryOneTime(100))
			.connectionTimeoutMs(10_000)
			.build();
		client.start();
		if (!client.blockUntilConnected(10, TimeUnit.SECONDS)) {
			client.close();
			throw new IllegalStateException("The test kit could not connect to ZooKeeper at " + connect + " within 10 s");
		}
		return client;
	}

}
