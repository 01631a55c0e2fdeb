package dev.zkspring.distcheck.layout;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.EphemeralType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.ZkJobs;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.publish.Change;
import dev.zkspring.publish.ConfigCanaries;
import dev.zkspring.publish.ConfigPublisher;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The znode layout is public (docs/versioning.md): where documents, history, canaries, locks, elections, job
 * records and fleet nodes live, and which kind of node each is. Two instances of an application that uses every
 * capability run on a server of their own; the tree is then walked and each node written as a pattern (instance
 * ids, sequence numbers, numbers and Curator's protection prefixes replaced by placeholders) with its kind,
 * and the set compared with the committed {@code api/znode-layout.txt}. A change to where or how anything is
 * stored fails {@code mvn verify} until the listing is regenerated in the same commit
 * ({@code -Dapi.update=true}, as for the API listing) and the changelog says so.
 */
class ZnodeLayoutTests {

	private static final Duration WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@Test
	void theZnodeLayoutIsTheCommittedOne() throws Exception {
		try (CuratorFramework seed = zk.newClient()) {
			seed.create().creatingParentsIfNeeded().forPath("/config/layout",
					"{\"layout\":{\"greeting\":\"v1\"}}".getBytes(StandardCharsets.UTF_8));
		}
		try (ConfigurableApplicationContext one = start("instance-one");
				ConfigurableApplicationContext two = start("instance-two");
				CuratorFramework operator = zk.newClient()) {
			List<ZkLeaderElection> elections = List.of(one.getBean(ZkLeaderElection.class), two.getBean(ZkLeaderElection.class));
			await().atMost(WAIT).until(() -> elections.stream().filter(ZkLeaderElection::isLeader).count() == 1);
			ConfigurableApplicationContext leader = elections.get(0).isLeader() ? one : two;
			await().atMost(WAIT).until(() -> LayoutApplication.Tick.runs.get() >= 2);
			// an operator's run-now and pause, answered by the leader
			ZkJobs jobs = two.getBean(ZkJobs.class);
			assertThat(jobs.request(null, "tick", "run").status()).isIn(JobAnswer.Status.STARTED, JobAnswer.Status.DONE);
			assertThat(jobs.request(null, "tick", "pause").status()).isEqualTo(JobAnswer.Status.DONE);
			// a publication with history, and a canary running on one instance
			ConfigPublisher publisher = new ConfigPublisher(operator, "/config");
			publisher.put("layout", "{\"layout\":{\"greeting\":\"v2\"}}".getBytes(StandardCharsets.UTF_8),
					Change.by("layout-test", "second revision"));
			new ConfigCanaries(operator, "/config").start("layout",
					"{\"layout\":{\"greeting\":\"v3\"}}".getBytes(StandardCharsets.UTF_8),
					List.of(elections.get(0).participantId()), Change.by("layout-test", "canary"), false);
			// one lock held while the tree is read, a read lock beside a waiting write lock on another key
			String listing = leader.getBean(ZkLockTemplate.class).execute("order-1", WAIT,
					() -> describe(operator, List.of(elections.get(0).participantId(), elections.get(1).participantId())));
			Path committed = Path.of(System.getProperty("zkspring.root"), "api", "znode-layout.txt");
			if (Boolean.getBoolean("api.update")) {
				Files.writeString(committed, listing);
			}
			assertThat(listing).as("the znode layout; regenerate api/znode-layout.txt with -Dapi.update=true "
					+ "and say so in CHANGELOG.md when the change is meant").isEqualTo(Files.readString(committed));
		}
	}

	private static ConfigurableApplicationContext start(String id) {
		return new SpringApplicationBuilder(LayoutApplication.class).properties(Map.of("zk.connect", zk.connectString(),
				"spring.application.name", "layout", "zk.leader.id", id, "server.port", "0",
				"zk.leader.takeover-delay", "0s", "spring.quartz.job-store-type", "memory"))
			.run();
	}

	/** Every node below the root as {@code pattern kind}, sorted, without ZooKeeper's own /zookeeper. */
	private static String describe(CuratorFramework client, List<String> instanceIds) throws Exception {
		TreeSet<String> lines = new TreeSet<>();
		List<String> pending = new ArrayList<>(client.getChildren().forPath("/").stream().map((c) -> "/" + c).toList());
		while (!pending.isEmpty()) {
			String path = pending.remove(pending.size() - 1);
			if (path.equals("/zookeeper")) {
				continue;
			}
			Stat stat = client.checkExists().forPath(path);
			if (stat == null) {
				continue;
			}
			lines.add(pattern(path, instanceIds) + " " + kind(stat));
			for (String child : client.getChildren().forPath(path)) {
				pending.add(path + "/" + child);
			}
		}
		return String.join("\n", lines) + "\n";
	}

	static String pattern(String path, List<String> instanceIds) {
		String pattern = path;
		for (String id : instanceIds) {
			pattern = pattern.replace(id, "{instance}");
		}
		return pattern.replaceAll("_c_[0-9a-f-]{36}-", "_c_{uuid}-")
			// a lock request: the attempt (session and counter, hex and decimal), the mode, the sequence
			.replaceAll("(?<=/)[0-9a-f]+-[0-9]+-(?=[XR][0-9]{10}$)", "{attempt}-")
			.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "{uuid}")
			.replaceAll("(?<![0-9])[0-9]{10}(?![0-9])", "{seq}")
			.replaceAll("[0-9]+", "{n}");
	}

	private static String kind(Stat stat) {
		EphemeralType type = EphemeralType.get(stat.getEphemeralOwner());
		return switch (type) {
			case VOID -> "persistent";
			case NORMAL -> "ephemeral";
			case CONTAINER -> "container";
			case TTL -> "ttl";
		};
	}

}
