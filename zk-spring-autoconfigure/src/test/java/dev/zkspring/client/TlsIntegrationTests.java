package dev.zkspring.client;

import java.nio.file.Files;
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

/**
 * {@code zk.ssl.*} reaches a server that speaks TLS only; without it, trusting the wrong CA, or to a server
 * whose certificate names another host, it does not; {@code zookeeper.ssl.*} system properties change nothing.
 */
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

	@Test
	void hostnameVerificationCannotBeTurnedOffAndTheStartupSaysSo() {
		this.contextRunner.withPropertyValues(tls(server.trustStore()))
			.withPropertyValues("zk.ssl.hostname-verification=false")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(new ZkStartupFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
					.contains("zk.ssl.hostname-verification=false cannot be honoured");
			});
	}

	@Test
	void certificateNamingAnotherHostIsRefused() throws Exception {
		Path elsewhere = Files.createDirectories(directory.resolve("elsewhere"));
		try (TlsZooKeeperServer other = TlsZooKeeperServer.start(elsewhere, "CN=zk.elsewhere.example",
				"SAN=dns:zk.elsewhere.example")) {
			this.contextRunner
				.withPropertyValues("zk.connect=" + other.connectString(), "zk.connection-timeout=3s", "zk.ssl.enabled=true",
						"zk.ssl.key-store=" + other.keyStore(), "zk.ssl.key-store-password=" + TlsZooKeeperServer.PASSWORD,
						"zk.ssl.trust-store=" + other.trustStore(),
						"zk.ssl.trust-store-password=" + TlsZooKeeperServer.PASSWORD)
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(new ZkStartupFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
						.contains("Could not connect to ZooKeeper at '" + other.connectString() + "'");
				});
		}
	}

	@Test
	void zookeeperSslSystemPropertiesDoNotChangeTheConfiguredTls() {
		// a protocol no JDK enables any more: honoured, it would make every handshake fail
		System.setProperty("zookeeper.ssl.enabledProtocols", "SSLv2Hello");
		System.setProperty("zookeeper.ssl.trustStore.location", "/nonexistent/truststore.p12");
		try {
			this.contextRunner.withPropertyValues(tls(server.trustStore())).run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().isConnected()).isTrue();
			});
		}
		finally {
			System.clearProperty("zookeeper.ssl.enabledProtocols");
			System.clearProperty("zookeeper.ssl.trustStore.location");
		}
	}

	private static String[] tls(Path trustStore) {
		return new String[] { "zk.connect=" + server.connectString(), "zk.connection-timeout=3s", "zk.ssl.enabled=true",
				"zk.ssl.key-store=" + server.keyStore(), "zk.ssl.key-store-password=" + TlsZooKeeperServer.PASSWORD,
				"zk.ssl.trust-store=" + trustStore, "zk.ssl.trust-store-password=" + TlsZooKeeperServer.PASSWORD };
	}

}
