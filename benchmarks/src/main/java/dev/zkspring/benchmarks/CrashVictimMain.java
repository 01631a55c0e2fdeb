package dev.zkspring.benchmarks;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import dev.zkspring.client.SessionLease;
import dev.zkspring.crash.CrashDetectionSettings;
import dev.zkspring.crash.CrashDetector;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * The instance that {@link CrashBenchmarks} kills with {@code kill -9}, in a JVM of its own: it leads a
 * latch ({@code leader}) or holds a key ({@code lock}), with crash detection on or off, prints
 * {@code READY} and waits to be killed. Arguments: connect string, session timeout (ms),
 * {@code leader|lock}, latch path or key, {@code on|off}.
 */
public final class CrashVictimMain {

	static final String LOCK_ROOT = "/bench-crash-locks";

	private CrashVictimMain() {
	}

	public static void main(String[] args) throws Exception {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(args[0])
			.sessionTimeoutMs(Integer.parseInt(args[1]))
			.connectionTimeoutMs(2_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		client.start();
		client.blockUntilConnected();
		boolean detection = "on".equals(args[4]);
		SessionLease lease = SessionLease.start(client);
		CrashDetector detector = new CrashDetector(client, CrashDetectionSettings.defaults(false), () -> "victim");
		CountDownLatch holding = new CountDownLatch(1);
		if ("leader".equals(args[2])) {
			ZkLeaderElection election = new ZkLeaderElection(client, lease, args[3], () -> "victim", Duration.ofSeconds(1),
					Duration.ZERO);
			if (detection) {
				detector.follow(args[3], election::latchNode);
				detector.start();
			}
			election.start();
			while (!election.isLeader()) {
				Thread.sleep(5);
			}
			holding.countDown();
		}
		else {
			ZkLockTemplate template = new ZkLockTemplate(client, lease,
					new ZkLockTemplate.Settings(LOCK_ROOT, Duration.ofSeconds(3), 16, false), (event) -> {
					});
			if (detection) {
				template.watchPeersWith(detector);
				detector.start();
			}
			Thread holder = new Thread(() -> template.execute(args[3], Duration.ofSeconds(10), () -> {
				holding.countDown();
				Thread.sleep(Long.MAX_VALUE);
				return null;
			}));
			holder.setDaemon(true);
			holder.start();
		}
		holding.await();
		if (detection) {
			String card = "/crash/" + Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId());
			while (client.checkExists().forPath(card) == null) {
				Thread.sleep(5);
			}
		}
		System.out.println("READY");
		System.out.flush();
		Thread.sleep(Long.MAX_VALUE);
	}

}
