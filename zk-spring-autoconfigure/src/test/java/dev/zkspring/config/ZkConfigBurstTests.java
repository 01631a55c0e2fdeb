package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkFleetAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.autoconfigure.ZkRefreshAutoConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Coalescing a burst of writes may skip versions in between, never the last one: after every burst, on
 * each context, the instance applies the node's latest version within the usual propagation time. Bursts
 * of 1 to 100 writes with random gaps over three contexts, a cut connection in the middle of some, against
 * the embedded server, the same version in another process, and Debian's 3.8.0 package (a server before
 * ZOOKEEPER-4466, where one session keeps one watch mode per node: a one-shot watch of the application's
 * own session on a context node replaced the persistent one, and a burst's last write was never read).
 * The instance runs as a user's does, the fleet view included. The seed is fixed ({@code -Dburst.seed}
 * replays another), and named in every failure.
 */
class ZkConfigBurstTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private static final Duration CONVERGENCE = Duration.ofSeconds(10);

	private static final int ROUNDS = 12;

	private static final Map<String, String> CONTEXTS = contexts();

	@TempDir
	Path dir;

	@Test
	void everyBurstEndsOnItsLastWriteOnTheEmbeddedServer() throws Exception {
		bursts(zk.connectString());
	}

	@Test
	void everyBurstEndsOnItsLastWriteOnAServerInAnotherProcess() throws Exception {
		try (ZooKeeperProcess server = ZooKeeperProcess.fromTestClasspath(this.dir.resolve("server"))) {
			bursts(server.connectString());
		}
	}

	@Test
	void everyBurstEndsOnItsLastWriteOnDebiansZooKeeper38() throws Exception {
		try (ZooKeeperProcess server = ZooKeeperProcess.debian(this.dir.resolve("server"))) {
			assertThat(server.version()).as("Debian's packaged server").startsWith("3.8");
			bursts(server.connectString());
		}
	}

	private void bursts(String connectString) throws Exception {
		long seed = Long.getLong("burst.seed", 37L);
		Random random = new Random(seed);
		try (CuratorFramework writer = client(connectString); CuttableProxy proxy = CuttableProxy.to(connectString)) {
			Map<String, Integer> last = new LinkedHashMap<>();
			for (String znode : CONTEXTS.keySet()) {
				ConfigTestSupport.write(writer, znode, document(znode, 0));
				last.put(znode, 0);
			}
			runner(proxy.connectString()).run((context) -> {
				assertThat(context).hasNotFailed();
				awaitConverged(context, writer, last, seed, 0);
				for (int round = 1; round <= ROUNDS; round++) {
					List<String> written = new ArrayList<>(CONTEXTS.keySet());
					// a burst on one, two or all three contexts
					while (written.size() > 1 && random.nextInt(3) == 0) {
						written.remove(random.nextInt(written.size()));
					}
					int writes = 1 + random.nextInt(100);
					int cutAt = (round % 4 == 0) ? random.nextInt(writes) : -1;
					for (int i = 0; i < writes; i++) {
						if (i == cutAt) {
							proxy.cut();
						}
						String znode = written.get(random.nextInt(written.size()));
						int value = last.merge(znode, 1, Integer::sum);
						writer.setData().forPath(znode, document(znode, value));
						if (i == cutAt + 5 || (cutAt >= 0 && i == writes - 1)) {
							proxy.heal();
						}
						// gaps from none to a few milliseconds: some writes land while a reload reads
						if (random.nextBoolean()) {
							LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(random.nextInt(3000)));
						}
					}
					proxy.heal();
					awaitConverged(context, writer, last, seed, round);
				}
			});
		}
	}

	/** Each context's last value in the Environment, and each context's version in force equal to the node's. */
	private static void awaitConverged(ConfigurableApplicationContext context, CuratorFramework writer,
			Map<String, Integer> last, long seed, int round) {
		await("round " + round + " of seed " + seed + " converges on the last write of each context " + last)
			.atMost(CONVERGENCE).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
				for (Map.Entry<String, Integer> entry : last.entrySet()) {
					assertThat(context.getEnvironment().getProperty(CONTEXTS.get(entry.getKey()), Integer.class))
						.as("round %d (seed %d): %s", round, seed, CONTEXTS.get(entry.getKey()))
						.isEqualTo(entry.getValue());
				}
				for (ZnodePropertySource source : ZnodePropertySource.inForce(context.getEnvironment())) {
					Stat stat = writer.checkExists().forPath(source.getZnode());
					assertThat(source.getVersion()).as("round %d (seed %d): version in force of %s", round, seed,
							source.getZnode()).isEqualTo(stat.getVersion());
				}
			});
	}

	private ApplicationContextRunner runner(String connectString) {
		return new ApplicationContextRunner().withInitializer(new ZkConfigInitializer())
			.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
					ZkAutoConfiguration.class, ZkRefreshAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkFleetAutoConfiguration.class))
			.withPropertyValues("zk.connect=" + connectString, "zk.config.snapshot-dir=" + this.dir.resolve("snapshots"),
					"spring.application.name=orders", "spring.profiles.active=eu", "zk.session-timeout=10s",
					"zk.leader.id=burst");
	}

	private static byte[] document(String znode, int value) {
		String key = CONTEXTS.get(znode).substring("burst.".length());
		return ("{\"burst\":{\"" + key + "\":" + value + "}}").getBytes(StandardCharsets.UTF_8);
	}

	private static CuratorFramework client(String connectString) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.newClient(connectString, 10_000, 5_000, new RetryNTimes(10, 200));
		client.start();
		assertThat(client.blockUntilConnected(20, TimeUnit.SECONDS)).as("connected to " + connectString).isTrue();
		return client;
	}

	/** The contexts of application {@code orders} with profile {@code eu}, each with the key it writes. */
	private static Map<String, String> contexts() {
		Map<String, String> contexts = new LinkedHashMap<>();
		contexts.put("/config/application", "burst.shared");
		contexts.put("/config/orders", "burst.orders");
		contexts.put("/config/orders,eu", "burst.eu");
		return contexts;
	}

}
