package dev.zkspring.client;

import java.nio.charset.StandardCharsets;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** With {@code zk.auth.*} set, nodes the library creates belong to their creator alone. */
class DigestAuthAclIntegrationTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class))
		.withPropertyValues(zk.connectProperty(), "zk.auth.credentials=app:s3cret", "zk.namespace=secured");

	@Test
	void clientWithoutCredentialsCanNeitherChangeNorDeleteNodesTheLibraryCreated() throws Exception {
		CuratorFramework stranger = zk.newClient();
		this.contextRunner.run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			client.create().creatingParentsIfNeeded().forPath("/parent/child", bytes("v1"));

			for (String path : new String[] { "/", "/parent", "/parent/child" }) {
				assertThat(client.getACL().forPath(path)).singleElement().satisfies((acl) -> {
					assertThat(acl.getId().getScheme()).isEqualTo("digest");
					assertThat(acl.getId().getId()).startsWith("app:");
					assertThat(acl.getPerms()).isEqualTo(ZooDefs.Perms.ALL);
				});
			}
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.setData().forPath("/secured/parent/child", bytes("evil")));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.delete().forPath("/secured/parent/child"));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.getData().forPath("/secured/parent/child"));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.create().forPath("/secured/intruder"));
			assertThat(client.getData().forPath("/parent/child")).isEqualTo(bytes("v1"));
		});
	}

	@Test
	void anotherInstanceWithTheSameCredentialsSharesTheNodes() throws Exception {
		this.contextRunner.run((context) -> {
			context.getBean(CuratorFramework.class).create().creatingParentsIfNeeded().forPath("/shared", bytes("v1"));
			try (CuratorFramework sibling = CuratorFrameworkFactory.builder()
				.connectString(zk.connectString())
				.retryPolicy(new RetryOneTime(100))
				.authorization("digest", bytes("app:s3cret"))
				.build()) {
				sibling.start();
				sibling.setData().forPath("/secured/shared", bytes("v2"));
				assertThat(sibling.getData().forPath("/secured/shared")).isEqualTo(bytes("v2"));
			}
		});
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
