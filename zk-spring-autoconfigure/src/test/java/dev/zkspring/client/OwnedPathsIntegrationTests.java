package dev.zkspring.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.leader.ZkLeaderElection;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A stranger (a client without credentials) on the same ensemble plants the nodes zk-spring writes under
 * before the application starts: with credentials the startup fails naming the node and its ACL, or
 * repairs it with {@code zk.auth.repair-acls}; afterwards the stranger can neither delete a held lock
 * node nor write the leader's group node. Each test uses paths of its own on one server.
 */
class OwnedPathsIntegrationTests {

	private static final String CHECK_INTERVAL = "znode.container.checkIntervalMs";

	static {
		// the server reads it when it starts: sweep empty containers every 100 ms instead of every minute
		System.setProperty(CHECK_INTERVAL, "100");
	}

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkLeaderAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty(), "zk.auth.credentials=app:s3cret", "zk.leader.group=orders",
				"zk.leader.enabled=true");

	private final List<CuratorFramework> clients = new ArrayList<>();

	@AfterEach
	void closeClients() {
		this.clients.forEach(CuratorFramework::close);
	}

	@AfterAll
	static void restoreCheckInterval() {
		System.clearProperty(CHECK_INTERVAL);
	}

	@Test
	void namespaceAStrangerCreatedFailsTheStartupNamingItsAcl() throws Exception {
		zk.newClient().create().forPath("/planted-ns");
		this.contextRunner.withPropertyValues("zk.namespace=planted-ns", "zk.lock.enabled=false", "zk.leader.enabled=false")
			.run((context) -> assertThat(failure(context)).contains("Znode /planted-ns is not creator-only")
				.contains("[world:anyone:cdrwa]")
				.contains("zk.auth.repair-acls"));
	}

	@Test
	void namespaceAStrangerCreatedFailsTheConfigCentersEarlyClientToo() throws Exception {
		zk.newClient().create().forPath("/planted-early");
		ZkClientProperties properties = new ZkClientProperties();
		properties.setNamespace("planted-early");
		properties.getAuth().setCredentials("app:s3cret");
		CuratorFramework client = ZkClientFactory.create(properties.toClientSettings(List.of("/locks", "/leader")), zk.connectString(), List.of());
		this.clients.add(client);
		assertThatExceptionOfType(ZkStartupException.class)
			.isThrownBy(() -> ZkClientFactory.tryStart(client, Duration.ofSeconds(10)))
			.withMessageContaining("Znode /planted-early is not creator-only");
	}

	@Test
	void lockRootAStrangerCreatedFailsTheStartupNamingIt() throws Exception {
		zk.newClient().create().forPath("/planted-locks");
		this.contextRunner.withPropertyValues("zk.lock.root=/planted-locks", "zk.leader.enabled=false")
			.run((context) -> assertThat(failure(context)).contains("Znode /planted-locks is not creator-only")
				.contains("[world:anyone:cdrwa]"));
	}

	@Test
	void leaderRootAStrangerCreatedFailsTheStartupNamingIt() throws Exception {
		zk.newClient().create().forPath("/planted-leader");
		this.contextRunner.withPropertyValues("zk.leader.root=/planted-leader", "zk.lock.enabled=false")
			.run((context) -> assertThat(failure(context)).contains("Znode /planted-leader is not creator-only"));
	}

	@Test
	void groupNodeAStrangerCreatedUnderOurLeaderRootFailsTheStartupNamingIt() throws Exception {
		CuratorFramework owner = appClient();
		owner.create().withACL(ZooDefs.Ids.CREATOR_ALL_ACL).forPath("/our-leader");
		// the root was once open, say, and has been fixed by hand since; the group node was left behind
		owner.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/our-leader");
		zk.newClient().create().forPath("/our-leader/orders", bytes("stranger"));
		owner.setACL().withACL(ZooDefs.Ids.CREATOR_ALL_ACL).forPath("/our-leader");
		this.contextRunner.withPropertyValues("zk.leader.root=/our-leader", "zk.lock.enabled=false")
			.run((context) -> assertThat(failure(context)).contains("Znode /our-leader/orders is not creator-only"));
	}

	@Test
	void repairMakesPlantedLockNodesOursSoNoStrangerCanDeleteAHeldLock() throws Exception {
		CuratorFramework stranger = zk.newClient();
		stranger.create().creatingParentsIfNeeded().forPath("/repaired-locks/order-2");
		this.contextRunner.withPropertyValues("zk.lock.root=/repaired-locks", "zk.leader.enabled=false",
				"zk.auth.repair-acls=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				context.getBean(ZkLockTemplate.class).execute("order-2", Duration.ofSeconds(5), () -> {
					List<String> held = context.getBean(CuratorFramework.class).getChildren().forPath("/repaired-locks/order-2");
					assertThat(held).hasSize(1);
					assertThatExceptionOfType(KeeperException.NoAuthException.class)
						.isThrownBy(() -> stranger.delete().forPath("/repaired-locks/order-2/" + held.get(0)));
					assertThatExceptionOfType(KeeperException.NoAuthException.class)
						.isThrownBy(() -> stranger.getChildren().forPath("/repaired-locks/order-2"));
					assertThatExceptionOfType(KeeperException.NoAuthException.class)
						.isThrownBy(() -> stranger.create().forPath("/repaired-locks/order-3"));
					return null;
				});
			});
	}

	@Test
	void repairMakesPlantedLeaderNodesOursSoNoStrangerCanWriteTheGroupNode() throws Exception {
		CuratorFramework stranger = zk.newClient();
		stranger.create().creatingParentsIfNeeded().forPath("/repaired-leader/orders", bytes("stranger"));
		this.contextRunner.withPropertyValues("zk.leader.root=/repaired-leader", "zk.lock.enabled=false",
				"zk.auth.repair-acls=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
				await().atMost(Duration.ofSeconds(10)).until(election::isLeader);
				assertThatExceptionOfType(KeeperException.NoAuthException.class)
					.isThrownBy(() -> stranger.setData().forPath("/repaired-leader/orders", bytes("stranger")));
				assertThatExceptionOfType(KeeperException.NoAuthException.class)
					.isThrownBy(() -> stranger.create().forPath("/repaired-leader/orders/latch-0000000000"));
				assertThat(election.leaderId()).contains(election.participantId());
			});
	}

	@Test
	void repairFailsNamingTheNodeWhenAnotherIdentityOwnsIt() throws Exception {
		try (CuratorFramework other = CuratorFrameworkFactory.builder()
			.connectString(zk.connectString())
			.retryPolicy(new RetryOneTime(100))
			.authorization("digest", bytes("other:pa55"))
			.build()) {
			other.start();
			other.create().withACL(ZooDefs.Ids.CREATOR_ALL_ACL).forPath("/taken-locks");
			this.contextRunner.withPropertyValues("zk.lock.root=/taken-locks", "zk.leader.enabled=false",
					"zk.auth.repair-acls=true")
				.run((context) -> assertThat(failure(context)).contains("Znode /taken-locks is not creator-only")
					
					.contains("lacks the ADMIN permission").contains("not readable by this identity")
					.doesNotContain("pa55"));
		}
	}

	@Test
	void rootsStayWhenTheirKeysAreGoneSoNoStrangerCanReCreateThem() throws Exception {
		CuratorFramework stranger = zk.newClient();
		this.contextRunner.withPropertyValues("zk.namespace=kept", "zk.leader.enabled=false").run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			context.getBean(ZkLockTemplate.class).execute("once", Duration.ofSeconds(5), () -> null);
			await().atMost(Duration.ofSeconds(10)).until(() -> client.checkExists().forPath("/locks/once") == null);
			assertThat(client.checkExists().forPath("/locks").getEphemeralOwner()).isZero();
			assertThat(client.checkExists().forPath("/").getEphemeralOwner()).isZero();
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.delete().forPath("/kept/locks"));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.create().forPath("/kept/locks/once"));
		});
	}

	@Test
	void lockRootIsCheckedAtFirstUseWhenTheClientWasNotConnectedAtStartup() throws Exception {
		ZkClientProperties properties = new ZkClientProperties();
		properties.getAuth().setCredentials("app:s3cret");
		CuratorFramework client = ZkClientFactory.create(properties.toClientSettings(List.of("/locks", "/leader")), zk.connectString(), List.of());
		this.clients.add(client);
		SessionLease lease = SessionLease.start(client);
		ZkLockTemplate template = new ZkLockTemplate(client, lease,
				ZkLockTemplate.Settings.defaults().withRoot("/late-locks"), (event) -> {
				});
		ZkClientFactory.start(client, Duration.ofSeconds(10));
		zk.newClient().create().forPath("/late-locks");
		assertThatExceptionOfType(ZkStartupException.class)
			.isThrownBy(() -> template.execute("order-2", Duration.ofSeconds(1), () -> null))
			.withMessageContaining("Znode /late-locks is not creator-only");
	}

	@Test
	void aPathPlantedAfterStartupFailsItsFirstUse() throws Exception {
		CuratorFramework client = appClient();
		zk.newClient().create().forPath("/planted-later");
		assertThatExceptionOfType(ZkStartupException.class).isThrownBy(() -> OwnedPaths.ensure(client, "/planted-later"))
			.withMessageContaining("Znode /planted-later is not creator-only");
	}

	@Test
	void withoutCredentialsNothingIsCheckedButRootsArePersistent() throws Exception {
		zk.newClient().create().forPath("/open-locks");
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class,
					ZkLeaderAutoConfiguration.class))
			.withPropertyValues(zk.connectProperty(), "zk.leader.group=orders", "zk.leader.enabled=true", "zk.lock.root=/open-locks",
					"zk.leader.root=/open-leader")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.checkExists().forPath("/open-leader").getEphemeralOwner()).isZero();
				assertThat(client.checkExists().forPath("/open-leader/orders").getEphemeralOwner()).isZero();
				// what a leader wrote there, never what the node was created with: nobody led before
				ZkLeaderElection election = context.getBean(ZkLeaderElection.class);
				await().atMost(Duration.ofSeconds(10)).until(election::isLeader);
				election.stop();
				assertThat(client.getData().forPath("/open-leader/orders")).isEmpty();
				assertThat(client.getData().forPath("/open-leader")).isEmpty();
			});
	}

	private CuratorFramework appClient() {
		ZkClientProperties properties = new ZkClientProperties();
		properties.getAuth().setCredentials("app:s3cret");
		CuratorFramework client = ZkClientFactory.create(properties.toClientSettings(List.of("/locks", "/leader")), zk.connectString(), List.of());
		this.clients.add(client);
		ZkClientFactory.start(client, Duration.ofSeconds(10));
		return client;
	}

	/** What the failure analyzer shows: what went wrong, then what to do. */
	private static String failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new ZkStartupFailureAnalyzer().analyze(context.getStartupFailure());
		return analysis.getDescription() + "\n" + analysis.getAction();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
