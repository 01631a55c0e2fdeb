package dev.zkspring.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLeaderAutoConfiguration;
import dev.zkspring.autoconfigure.ZkLockAutoConfiguration;
import dev.zkspring.lock.ZkLockTemplate;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 25, item 6: a stranger plants persistent nodes inside the lock and leader roots while they are
 * open. {@code zk.auth.repair-acls} must not adopt them (a planted holder node would then block its key
 * forever, a planted record would be trusted): it deletes each and names it in one line. Without
 * credentials nothing is repaired, and the first caller waiting behind a planted holder node deletes it.
 */
@ExtendWith(OutputCaptureExtension.class)
class RepairAclsRecordsIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class, ZkLockAutoConfiguration.class,
				ZkLeaderAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty(), "zk.leader.group=orders");

	@Test
	void repairRemovesAHolderNodeAStrangerPlantedUnderALockKey(CapturedOutput output) throws Exception {
		String planted = plantHolder("/planted-holder/order-7");
		this.contextRunner
			.withPropertyValues("zk.auth.credentials=app:s3cret", "zk.auth.repair-acls=true",
					"zk.lock.root=/planted-holder", "zk.leader.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				// gone at startup, before any lock call could find it in a queue
				assertThat(context.getBean(CuratorFramework.class).checkExists().forPath(planted)).isNull();
				assertThat(output).contains("Removed znode /planted-holder/order-7 ");
				assertThat(context.getBean(ZkLockTemplate.class)
					.tryExecute("order-7", Duration.ofSeconds(2), () -> "ran")
					.toOptional()).contains("ran");
			});
	}

	@Test
	void repairOfTheNamespaceRemovesAHolderNodePlantedBelowIt(CapturedOutput output) throws Exception {
		String planted = plantHolder("/planted-ns-holder/locks/order-8");
		this.contextRunner
			.withPropertyValues("zk.auth.credentials=app:s3cret", "zk.auth.repair-acls=true",
					"zk.namespace=planted-ns-holder", "zk.leader.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(zk.newClient().checkExists().forPath(planted)).isNull();
				assertThat(output).contains("Removed znode /planted-ns-holder/locks/order-8 ");
				assertThat(context.getBean(ZkLockTemplate.class)
					.tryExecute("order-8", Duration.ofSeconds(2), () -> "ran")
					.toOptional()).contains("ran");
			});
	}

	@Test
	void repairRemovesLeaderRecordsAStrangerPlanted(CapturedOutput output) throws Exception {
		CuratorFramework stranger = zk.newClient();
		stranger.create().creatingParentsIfNeeded().forPath("/planted-records/orders.triggers/evil", bytes("{}"));
		stranger.create().creatingParentsIfNeeded().forPath("/planted-records/orders.fire-times/job", bytes("4102444800000"));
		this.contextRunner
			.withPropertyValues("zk.auth.credentials=app:s3cret", "zk.auth.repair-acls=true",
					"zk.leader.root=/planted-records", "zk.lock.enabled=false", "zk.leader.enabled=true")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.checkExists().forPath("/planted-records/orders.triggers/evil")).isNull();
				assertThat(client.checkExists().forPath("/planted-records/orders.fire-times/job")).isNull();
				assertThat(output).contains("Removed znode /planted-records/orders.triggers ")
					.contains("Removed znode /planted-records/orders.fire-times ")
					.doesNotContain("4102444800000");
			});
	}

	@Test
	void withoutCredentialsTheFirstCallerWaitingBehindAPlantedHolderNodeDeletesIt(CapturedOutput output)
			throws Exception {
		String planted = plantHolder("/open-holder/order-9");
		this.contextRunner.withPropertyValues("zk.lock.root=/open-holder", "zk.leader.enabled=false").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(ZkLockTemplate.class)
				.tryExecute("order-9", Duration.ofSeconds(5), () -> "ran")
				.toOptional()).contains("ran");
			assertThat(context.getBean(CuratorFramework.class).checkExists().forPath(planted)).isNull();
			assertThat(output).contains("Deleted znode " + planted + ", which blocked lock 'order-9'");
		});
	}

	/** A persistent node named like a holder's, first in the key's queue. */
	private static String plantHolder(String key) throws Exception {
		return zk.newClient()
			.create()
			.creatingParentsIfNeeded()
			.withMode(CreateMode.PERSISTENT_SEQUENTIAL)
			.forPath(key + "/0000000000-1-X");
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
