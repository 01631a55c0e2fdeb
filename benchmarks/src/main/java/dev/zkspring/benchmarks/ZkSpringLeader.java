package dev.zkspring.benchmarks;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;

import dev.zkspring.leader.LeadershipGrantedEvent;
import dev.zkspring.leader.LeadershipListener;
import dev.zkspring.leader.LeadershipRevokedEvent;
import dev.zkspring.leader.ZkLeaderElection;

/**
 * zk-spring's election with its defaults: a graceful stop releases at once, and after an abrupt loss the
 * successor acts at once too (no takeover delay): the session lease has stopped the old leader already.
 */
final class ZkSpringLeader implements LeaderBenchmarks.LeaderContender {

	static final Duration TAKEOVER_DELAY = Duration.ZERO;

	private final CuratorFramework[] clients = new CuratorFramework[2];

	private final ZkLeaderElection[] elections = new ZkLeaderElection[2];

	private final CompletableFuture<?>[] granted = new CompletableFuture<?>[2];

	@Override
	public String name() {
		return "zk-spring ZkLeaderElection (defaults: session lease, no takeover delay)";
	}

	@Override
	public void start(Clients clients) throws Exception {
		for (int i = 0; i < 2; i++) {
			this.clients[i] = clients.connect();
			join(i);
		}
		leader();
	}

	private void join(int i) {
		CompletableFuture<Long> mine = new CompletableFuture<>();
		this.granted[i] = mine;
		ZkLeaderElection election = new ZkLeaderElection(this.clients[i], "/bench-zk-leader/group", () -> "p" + i,
				Duration.ofSeconds(1), TAKEOVER_DELAY);
		election.setApplicationEventPublisher((event) -> {
		});
		election.addListener(new LeadershipListener() {
			public void leadershipGranted(LeadershipGrantedEvent event) {
				mine.complete(System.nanoTime());
			}

			public void leadershipRevoked(LeadershipRevokedEvent event) {
			}
		});
		election.start();
		this.elections[i] = election;
	}

	private int leader() throws Exception {
		for (int attempt = 0; attempt < 1000; attempt++) {
			for (int i = 0; i < 2; i++) {
				if (this.elections[i].isLeader()) {
					return i;
				}
			}
			TimeUnit.MILLISECONDS.sleep(10);
		}
		throw new IllegalStateException("no leader elected");
	}

	@Override
	public long handover() throws Exception {
		int leader = leader();
		long start = System.nanoTime();
		this.elections[leader].stop();
		long took = (Long) this.granted[1 - leader].get(30, TimeUnit.SECONDS) - start;
		join(leader);
		return took;
	}

	@Override
	public long failover() throws Exception {
		int leader = leader();
		long start = System.nanoTime();
		this.clients[leader].getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
		long took = (Long) this.granted[1 - leader].get(60, TimeUnit.SECONDS) - start;
		this.elections[leader].stop();
		join(leader);
		return took;
	}

	@Override
	public LeaderBenchmarks.Participant participant(CuratorFramework client, String path, String id) {
		CompletableFuture<Long> granted = new CompletableFuture<>();
		ZkLeaderElection election = new ZkLeaderElection(client, path, () -> id, Duration.ofSeconds(1), TAKEOVER_DELAY);
		election.setApplicationEventPublisher((event) -> {
		});
		election.addListener(new LeadershipListener() {
			public void leadershipGranted(LeadershipGrantedEvent event) {
				granted.complete(System.nanoTime());
			}

			public void leadershipRevoked(LeadershipRevokedEvent event) {
			}
		});
		election.start();
		return new LeaderBenchmarks.Participant() {
			public boolean isLeader() {
				return election.isLeader();
			}

			public boolean joined() {
				return election.participants().contains(id);
			}

			public CompletableFuture<Long> granted() {
				return granted;
			}

			public void close() {
				election.stop();
				client.close();
			}
		};
	}

	@Override
	public void stop() {
		for (ZkLeaderElection election : this.elections) {
			election.stop();
		}
	}

}
