package dev.zkspring.config;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.client.ZkStartupException;
import dev.zkspring.config.ConfigTestSupport.EventRecorder;
import dev.zkspring.test.ServerRequests;
import dev.zkspring.test.ZkAppFixture;

import static dev.zkspring.config.ConfigTestSupport.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A context this application may not read (an ACL for another identity) never affects the others,
 * keeps its last good document while running, fails a fail-fast startup naming the znode as an ACL
 * problem, and keeps the snapshot from being written from an incomplete load.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZkConfigIsolationTests {

	private static final String SHARED = "/config/application";

	private static final String OWN = "/config/orders";

	private static final Duration WAIT = Duration.ofSeconds(10);

	@RegisterExtension
	static final ZkAppFixture app = ZkAppFixture.server(ConfigTestSupport::runner).cleaning("/config")
		.with((runner) -> runner.withBean(EventRecorder.class, EventRecorder::new));

	@AfterEach
	void cleanUp() throws Exception {
		// exists() needs READ too: the identity the ACL names opens the node again
		{
			try (CuratorFramework other = CuratorFrameworkFactory.builder()
				.connectString(app.zk().connectString())
				.retryPolicy(new RetryOneTime(100))
				.authorization("digest", utf8("other:secret"))
				.build()) {
				other.start();
				if (other.checkExists().forPath(SHARED) != null) {
					other.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(SHARED);
				}
			}
		}
	}

	@Test
	void anUnreadableContextAtStartupIsSkippedAloneAndNoSnapshotIsWritten(CapturedOutput output) throws Exception {
		write(app.writer(), SHARED, "{\"shop\":{\"shared\":\"s\"}}");
		write(app.writer(), OWN, "{\"shop\":{\"greeting\":\"own\"}}");
		lockOut(SHARED);
		app.runner().withPropertyValues("zk.config.fail-fast=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getEnvironment().getProperty("shop.greeting")).isEqualTo("own");
			assertThat(context.getEnvironment().getProperty("shop.shared")).isNull();
			assertThat(output).contains("The config context znode " + SHARED + " cannot be read (NOAUTH)");
			assertThat(jsonFiles()).as("no snapshot from an incomplete load").isEmpty();
		});
	}

	@Test
	void whileAContextIsUnreadableAChangeToAnotherCostsOneRequest() throws Exception {
		write(app.writer(), SHARED, "{\"shop\":{\"shared\":\"s\"}}");
		write(app.writer(), OWN, "{\"shop\":{\"greeting\":\"g0\"}}");
		lockOut(SHARED);
		app.runner().withPropertyValues("zk.config.fail-fast=false").run((context) -> {
			assertThat(context).hasNotFailed();
			CuratorFramework client = context.getBean(CuratorFramework.class);
			change(context, "g1");
			long fewest = ServerRequests.fewest(client, List.of("g2", "g3", "g4"), (greeting) -> change(context, greeting));
			assertThat(fewest).as("requests for one change of " + OWN + " while " + SHARED + " is unreadable")
				.isEqualTo(1);
			assertThat(context.getEnvironment().getProperty("shop.shared")).isNull();
		});
	}

	private void change(ConfigurableApplicationContext context, String greeting) throws Exception {
		write(app.writer(), OWN, "{\"shop\":{\"greeting\":\"" + greeting + "\"}}");
		await().atMost(WAIT).pollInterval(Duration.ofMillis(2))
			.until(() -> greeting.equals(context.getEnvironment().getProperty("shop.greeting")));
	}

	@Test
	void anUnreadableContextFailsAFailFastStartupNamingTheZnodeAsAnAclProblem() throws Exception {
		write(app.writer(), SHARED, "{\"shop\":{\"shared\":\"s\"}}");
		lockOut(SHARED);
		app.runner().run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure != null && !(failure instanceof ZkStartupException)) {
				failure = failure.getCause();
			}
			assertThat(failure).isInstanceOf(ZkStartupException.class);
			ZkStartupException startup = (ZkStartupException) failure;
			assertThat(startup.getDescription()).contains(SHARED).contains("NOAUTH");
			assertThat(startup.getAction()).contains("ACL/auth problem").contains(SHARED);
		});
	}

	@Test
	void whileRunningAContextThatBecomesUnreadableKeepsItsLastGoodDocumentAndTheOthersStillChange()
			throws Exception {
		write(app.writer(), SHARED, "{\"shop\":{\"shared\":\"s1\"}}");
		write(app.writer(), OWN, "{\"shop\":{\"greeting\":\"v1\"}}");
		app.runner().run((context) -> {
			Path snapshot = ZkConfigSnapshotTests.snapshotFile(app.snapshots());
			assertThat(Files.readString(snapshot)).contains("s1").contains("v1");
			lockOut(SHARED);
			write(app.writer(), OWN, "{\"shop\":{\"greeting\":\"v2\"}}");
			EventRecorder events = context.getBean(EventRecorder.class);
			await().atMost(WAIT).until(() -> "v2".equals(context.getEnvironment().getProperty("shop.greeting")));
			assertThat(context.getEnvironment().getProperty("shop.shared")).isEqualTo("s1");
			assertThat(events.changes).hasSize(1);
			assertThat(events.changes.get(0).getKeys()).containsExactly("shop.greeting");
			assertThat(Files.readString(snapshot)).as("the snapshot is written from complete loads only")
				.contains("v1")
				.doesNotContain("v2");
		});
	}

	@Test
	void snapshotsOfOneApplicationNameOnDifferentEnsemblesNamespacesOrRootsAreDifferentFiles() {
		ConfigContexts contexts = new ConfigContexts("/config", "orders", List.of(),
				List.of("/config/application", "/config/orders"));
		ConfigContexts otherRoot = new ConfigContexts("/cfg", "orders", List.of(), List.of("/cfg/application", "/cfg/orders"));
		Path one = ConfigSnapshotStore.forApplication(app.snapshots(), contexts, ",", "a:2181,b:2181", null).file();
		assertThat(ConfigSnapshotStore.forApplication(app.snapshots(), contexts, ",", "b:2181,a:2181", null).file())
			.as("the same ensemble written in another order").isEqualTo(one);
		assertThat(List.of(ConfigSnapshotStore.forApplication(app.snapshots(), contexts, ",", "c:2181", null).file(),
				ConfigSnapshotStore.forApplication(app.snapshots(), contexts, ",", "a:2181,b:2181", "team-b").file(),
				ConfigSnapshotStore.forApplication(app.snapshots(), otherRoot, ",", "a:2181,b:2181", null).file()))
			.doesNotContain(one)
			.doesNotHaveDuplicates()
			.allMatch((file) -> file.getFileName().toString().startsWith("orders-"));
	}

	/** Give the node an ACL that lets only another identity (digest other:secret) read it. */
	private void lockOut(String znode) throws Exception {
		Id other = new Id("digest", DigestAuthenticationProvider.generateDigest("other:secret"));
		app.writer().setACL()
			.withACL(List.of(new ACL(ZooDefs.Perms.ALL, other)))
			.forPath(znode);
	}

	private List<Path> jsonFiles() throws Exception {
		try (var files = Files.list(app.snapshots())) {
			return files.filter((file) -> file.toString().endsWith(".json")).toList();
		}
	}

	static byte[] utf8(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
