package dev.zkspring.client;

import java.nio.file.Path;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.zkspring.autoconfigure.ZkAutoConfiguration;
import dev.zkspring.test.TlsZooKeeperServer;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code zk.ssl.*} reaches a server that speaks TLS only; without it, or trusting the wrong CA, it does not. */
class TlsIntegrationTests {

	@TempDir
	static Path directory;

	static TlsZooKeeperServer server;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZkAutoConfiguration.class));

	@BeforeAll
	static void startServer() throws Exception {
		server = TlsZooKeeperServer.start(directory);
	}

	@AfterAll
	static void stopServer() throws Exception {
		server.close();
	}

	@Test
	void connectsToATlsOnlyServerWithTheConfiguredStores() {
		this.contextRunner.withPropertyValues(tls(server.trustStore())).run((context) -> {
			assertThat(context).hasNotFailed();
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(client.getZookeeperClient().isConnected()).isTrue();
			client.create().forPath("/over-tls", new byte[] { 42 });
			assertThat(client.getData().forPath("/over-tls")).containsExactly(42);
		});
	}

	@Test
	void plainConnectionToTheTlsPortFailsWithTheConnectMessage() {
		this.contextRunner.withPropertyValues("zk.connect=" + server.connectString(), "zk.connection-timeout=2s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(new ZkStartupFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
					.contains("Could not connect to ZooKeeper at '" + server.connectString() + "'");
			});
	}

	@Test
	void trustStoreWithoutTheServersCertificateIsRefused() throws Exception {
		TlsZooKeeperServer.Stores.generate(directory, "stranger", "CN=stranger");
		this.contextRunner.withPropertyValues(tls(TlsZooKeeperServer.Stores.trustStore(directory, "stranger")))
			.run((context) -> assertThat(context).hasFailed());
	}

	private static String[] tls(Path trustStore) {
		return new String[] { "zk.connect=" + server.connectString(), "zk.connection-timeout=3s", "zk.ssl.enabled=true",
				"zk.ssl.key-store=" + server.keyStore(), "zk.ssl.key-store-password=" + TlsZooKeeperServer.PASSWORD,
				"zk.ssl.trust-store=" + trustStore, "zk.ssl.trust-store-password=" + TlsZooKeeperServer.PASSWORD };
	}

}
