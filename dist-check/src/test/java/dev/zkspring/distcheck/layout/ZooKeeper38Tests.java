package dev.zkspring.distcheck.layout;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import dev.zkspring.cli.ZkSpringCli;
import dev.zkspring.leader.ZkLeaderElection;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The compatibility table's Debian 3.8.0 rows for leadership and the tool (docs/compatibility.md): on the server
 * {@code .ci/run} starts from Debian's package ({@code ZK_SPRING_COMPAT_CONNECT}), under a chroot of this run's own,
 * {@link EveryCapability} leaves exactly the layout it leaves on the embedded 3.9 server; the tool's {@code fleet},
 * {@code leaders}, {@code locks}, {@code config get} and {@code config history} read it; and a stopped leader hands
 * over to the other instance with a higher epoch. Skipped where the variable is not set, except on CI.
 */
class ZooKeeper38Tests {

	static String compatConnect() {
		String connect = System.getenv("ZK_SPRING_COMPAT_CONNECT");
		if (connect == null || connect.isBlank()) {
			String missing = "ZK_SPRING_COMPAT_CONNECT is not set: .ci/run starts Debian's ZooKeeper 3.8 and sets it";
			if ("true".equals(System.getenv("CI"))) {
				throw new IllegalStateException(missing);
			}
			Assumptions.abort(missing);
		}
		return connect;
	}

	@Test
	void everyCapabilityAndTheToolOnDebiansServer() throws Exception {
		String server = compatConnect();
		String chroot = "/layout-" + UUID.randomUUID();
		try (CuratorFramework root = CuratorFrameworkFactory.newClient(server, new RetryOneTime(200))) {
			root.start();
			root.create().forPath(chroot);
		}
		String connect = server + chroot;
		EveryCapability.run(connect, (leader, follower, operator, ids) -> {
			assertThat(EveryCapability.layout(operator, ids)).as("the layout on 3.8 is the one on 3.9")
				.isEqualTo(Files.readString(ZnodeLayoutTests.committed()));
			String leaderId = leader.getBean(ZkLeaderElection.class).participantId();
			assertThat(cli(connect, "fleet", "--output", "json")).contains("instance-one", "instance-two");
			assertThat(cli(connect, "leaders", "--output", "json")).containsPattern("\"leader\" *: *\"" + leaderId + "\"");
			assertThat(cli(connect, "locks", "--key", "order-1", "--output", "json")).contains(leaderId);
			assertThat(cli(connect, "config", "get", "layout")).contains("v2");
			assertThat(cli(connect, "config", "history", "layout")).contains("second revision");
			// a stopped leader hands over to the other instance, with a higher epoch
			ZkLeaderElection next = follower.getBean(ZkLeaderElection.class);
			long epoch = leader.getBean(ZkLeaderElection.class).epoch();
			leader.getBean(ZkLeaderElection.class).stop();
			await().atMost(Duration.ofSeconds(20)).until(next::isLeader);
			assertThat(next.epoch()).isGreaterThan(epoch);
		});
	}

	private static String cli(String connect, String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = ZkSpringCli.run(args, InputStream.nullInputStream(), new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8), Map.of("ZK_CONNECT", connect));
		String printed = out.toString(StandardCharsets.UTF_8);
		assertThat(status).as(String.join(" ", args) + ": " + err.toString(StandardCharsets.UTF_8) + printed).isZero();
		return printed;
	}

}
