package dev.zkspring.client;

import java.time.Duration;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import dev.zkspring.test.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ZooKeeper's {@code new ZKClientConfig()} copies {@code zookeeper.client.secure},
 * {@code zookeeper.clientCnxnSocket} and {@code zookeeper.ssl.*} system properties into the config; the
 * client zk-spring builds takes its transport from {@code zk.ssl.*} alone.
 */
class ClientTlsSystemPropertiesTests {

	@RegisterExtension
	static final ZooKeeperExtension zk = ZooKeeperExtension.server();

	@AfterEach
	void clearSystemProperties() {
		System.clearProperty(ZKClientConfig.SECURE_CLIENT);
		System.clearProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET);
		System.clearProperty("zookeeper.ssl.trustStore.location");
	}

	@Test
	void zookeeperItselfPicksUpTheSystemProperties() {
		setTlsSystemProperties();
		assertThat(new ZKClientConfig().getProperty(ZKClientConfig.SECURE_CLIENT)).isEqualTo("true");
	}

	@Test
	void aPlainClientStaysPlainWhenSystemPropertiesAskForTls() {
		setTlsSystemProperties();
		ZKClientConfig config = ClientTls.clientConfig(new ZkClientProperties().toClientSettings(List.of("/locks", "/leader")).tls());
		assertThat(config.getProperty(ZKClientConfig.SECURE_CLIENT)).isNull();
		assertThat(config.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET)).isNull();
		assertThat(config.getProperty("zookeeper.ssl.trustStore.location")).isNull();
		CuratorFramework client = ZkClientFactory.create(new ZkClientProperties().toClientSettings(List.of("/locks", "/leader")), zk.connectString(),
				List.of());
		try {
			ZkClientFactory.start(client, Duration.ofSeconds(5));
			assertThat(client.getZookeeperClient().isConnected()).isTrue();
		}
		finally {
			client.close();
		}
	}

	private static void setTlsSystemProperties() {
		System.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
		System.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
		System.setProperty("zookeeper.ssl.trustStore.location", "/nonexistent/truststore.p12");
	}

}
