package dev.zkspring.distcheck.layout;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.EphemeralType;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.jobs.ZkJobs;
import dev.zkspring.leader.JobAnswer;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.publish.Change;
import dev.zkspring.publish.ConfigCanaries;
import dev.zkspring.publish.ConfigPublisher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of an application that uses every capability that writes to ZooKeeper, on the server at a
 * connect string: a seeded document, a publication with history, a canary on one instance, the election, a
 * leader-gated job run by the schedule, by an operator's run-now and then paused, fleet nodes, and a lock held
 * while {@link Moment} runs. Used for the znode layout and for the compatibility with other servers.
 */
final class EveryCapability {

	static final Duration WAIT = Duration.ofSeconds(30);

	private EveryCapability() {
	}

	/** What a check sees while both instances run and the leader holds {@code order-1}. */
	interface Moment {

		void check(ConfigurableApplicationContext leader, ConfigurableApplicationContext follower, CuratorFramework operator,
				List<String> instanceIds) throws Exception;

	}

	static void run(String connect, Moment moment) throws Exception {
		try (CuratorFramework operator = CuratorFrameworkFactory.newClient(connect, new RetryOneTime(200))) {
			operator.start();
			operator.create().creatingParentsIfNeeded().forPath("/config/layout",
					"{\"layout\":{\"greeting\":\"v1\"}}".getBytes(StandardCharsets.UTF_8));
			try (ConfigurableApplicationContext one = start(connect, "instance-one");
					ConfigurableApplicationContext two = start(connect, "instance-two")) {
				List<ZkLeaderElection> elections = List.of(one.getBean(ZkLeaderElection.class),
						two.getBean(ZkLeaderElection.class));
				await().atMost(WAIT).until(() -> elections.stream().filter(ZkLeaderElection::isLeader).count() == 1);
				boolean oneLeads = elections.get(0).isLeader();
				ConfigurableApplicationContext leader = oneLeads ? one : two;
				ConfigurableApplicationContext follower = oneLeads ? two : one;
				int before = LayoutApplication.Tick.runs.get();
				await().atMost(WAIT).until(() -> LayoutApplication.Tick.runs.get() >= before + 2);
				// an operator's run-now and pause, asked of the follower, answered by the leader
				ZkJobs jobs = follower.getBean(ZkJobs.class);
				assertThat(jobs.request(null, "tick", "run").status()).isIn(JobAnswer.Status.STARTED, JobAnswer.Status.DONE);
				assertThat(jobs.request(null, "tick", "pause").status()).isEqualTo(JobAnswer.Status.DONE);
				ConfigPublisher publisher = new ConfigPublisher(operator, "/config");
				publisher.put("layout", "{\"layout\":{\"greeting\":\"v2\"}}".getBytes(StandardCharsets.UTF_8),
						Change.by("layout-test", "second revision"));
				List<String> ids = List.of(elections.get(0).participantId(), elections.get(1).participantId());
				new ConfigCanaries(operator, "/config").start("layout",
						"{\"layout\":{\"greeting\":\"v3\"}}".getBytes(StandardCharsets.UTF_8), List.of(ids.get(0)),
						Change.by("layout-test", "canary"), false);
				await().atMost(WAIT).until(() -> "v3".equals(one.getEnvironment().getProperty("layout.greeting"))
						&& "v2".equals(two.getEnvironment().getProperty("layout.greeting")));
				leader.getBean(ZkLockTemplate.class).execute("order-1", WAIT, () -> {
					moment.check(leader, follower, operator, ids);
					return null;
				});
			}
		}
	}

	private static ConfigurableApplicationContext start(String connect, String id) {
		return new SpringApplicationBuilder(LayoutApplication.class).properties(Map.of("zk.connect", connect,
				"spring.application.name", "layout", "zk.leader.id", id, "zk.leader.takeover-delay", "0s",
				"zk.config.snapshot-enabled", "false", "spring.quartz.job-store-type", "memory"))
			.run();
	}

	/** Every node below the root as {@code pattern kind}, sorted, without ZooKeeper's own /zookeeper. */
	static String layout(CuratorFramework client, List<String> instanceIds) throws Exception {
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
		return pattern.replaceAll("(?<=^/crash/)[0-9a-f]+$", "{session}")
			.replaceAll("_c_[0-9a-f-]{36}-", "_c_{uuid}-")
			// a lock request: the attempt (session and counter, hex and decimal), the mode, the sequence
			.replaceAll("(?<=/)[0-9a-f]+-[0-9]+-(?=[XR][0-9]{10}$)", "{attempt}-")
			.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "{uuid}")
			.replaceAll("(?<![0-9])[0-9]{10}(?![0-9])", "{seq}")
			.replaceAll("[0-9]+", "{n}");
	}

	private static String kind(Stat stat) {
		return switch (EphemeralType.get(stat.getEphemeralOwner())) {
			case VOID -> "persistent";
			case NORMAL -> "ephemeral";
			case CONTAINER -> "container";
			case TTL -> "ttl";
		};
	}

}
