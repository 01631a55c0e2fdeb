package dev.zkspring.crash;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import dev.zkspring.client.SessionLease;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;

/**
 * The peer that is killed or frozen in {@link CrashDetectionMultiProcessTests}, in a JVM of its own from the
 * test classpath: with crash detection on, it leads a latch ({@code leader}), joins one behind its leader
 * ({@code member}) or holds a key ({@code lock}) and prints {@code READY <negotiated session timeout>} once its session card is written, then waits to
 * be killed. Arguments: connect string, session timeout (ms), {@code leader|member|lock}, latch path or key.
 */
public final class CrashPeerMain {

	static final String LOCK_ROOT = "/locks";

	private CrashPeerMain() {
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
		SessionLease lease = SessionLease.start(client);
		CrashDetector detector = new CrashDetector(client, CrashDetectionSettings.defaults(false), () -> "peer");
		CountDownLatch holding = new CountDownLatch(1);
		if ("leader".equals(args[2]) || "member".equals(args[2])) {
			ZkLeaderElection election = new ZkLeaderElection(client, lease, args[3], () -> "peer", Duration.ofSeconds(1),
					Duration.ZERO);
			detector.follow(args[3], election::latchNode);
			detector.start();
			election.start();
			while ("leader".equals(args[2]) ? !election.isLeader() : election.latchNode() == null) {
				Thread.sleep(10);
			}
			holding.countDown();
		}
		else {
			ZkLockTemplate template = new ZkLockTemplate(client, lease,
					new ZkLockTemplate.Settings(LOCK_ROOT, Duration.ofSeconds(3), 16, false), (event) -> {
					});
			template.watchPeersWith(detector);
			detector.start();
			Thread holder = new Thread(() -> template.execute(args[3], Duration.ofSeconds(10), () -> {
				holding.countDown();
				Thread.sleep(Long.MAX_VALUE);
				return null;
			}));
			holder.setDaemon(true);
			holder.start();
		}
		holding.await();
		String card = "/crash/" + Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId());
		while (client.checkExists().forPath(card) == null) {
			Thread.sleep(10);
		}
		System.out.println("READY " + client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs());
		System.out.flush();
		Thread.sleep(Long.MAX_VALUE);
	}

}
