package dev.zkspring.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

import dev.zkspring.client.ZkClientFactory;
import dev.zkspring.client.ZkClientSettings;

/**
 * Where and who the tool is: the ensemble, namespace and config root, credentials and TLS as the starter's
 * {@code zk.*} properties, and how long to wait. The client is built by the starter's own factory.
 */
final class ConnectionOptions {

	@Option(names = "--connect", scope = ScopeType.INHERIT, paramLabel = "HOST:PORT[,...]",
			description = "The ensemble (default: $ZK_CONNECT).")
	@Nullable String connect;

	@Option(names = "--namespace", scope = ScopeType.INHERIT, description = "As the applications' zk.namespace.")
	@Nullable String namespace;

	@Option(names = "--root", scope = ScopeType.INHERIT, defaultValue = "/config",
			description = "As the applications' zk.config.root (default: ${DEFAULT-VALUE}).")
	String root = "/config";

	@Option(names = "--auth", scope = ScopeType.INHERIT, paramLabel = "SCHEME:CREDENTIALS",
			description = "As zk.auth.*, e.g. digest:user:password (default: $ZK_AUTH; prefer the environment, "
					+ "argv is visible to other users).")
	@Nullable String auth;

	@Option(names = "--timeout", scope = ScopeType.INHERIT, defaultValue = "10s", paramLabel = "DURATION",
			converter = Durations.class, description = "How long to wait for ZooKeeper (default: ${DEFAULT-VALUE}).")
	Duration timeout = Duration.ofSeconds(10);

	@Option(names = "--ssl", scope = ScopeType.INHERIT, description = "As zk.ssl.enabled: TLS to the secure client port.")
	boolean ssl;

	@Option(names = "--ssl-key-store", scope = ScopeType.INHERIT, description = "As zk.ssl.key-store.")
	@Nullable Path keyStore;

	@Option(names = "--ssl-key-store-type", scope = ScopeType.INHERIT, description = "As zk.ssl.key-store-type.")
	@Nullable String keyStoreType;

	@Option(names = "--ssl-trust-store", scope = ScopeType.INHERIT, description = "As zk.ssl.trust-store.")
	@Nullable Path trustStore;

	@Option(names = "--ssl-trust-store-type", scope = ScopeType.INHERIT, description = "As zk.ssl.trust-store-type.")
	@Nullable String trustStoreType;

	/**
	 * A started, connected client.
	 * @throws Exits.Unreachable when no connection comes within the timeout
	 */
	CuratorFramework connect(Map<String, String> env) throws InterruptedException {
		String connectString = (this.connect != null) ? this.connect : env.get("ZK_CONNECT");
		if (connectString == null || connectString.isBlank()) {
			throw new IllegalArgumentException("no ensemble to connect to: set --connect HOST:PORT[,...] or ZK_CONNECT");
		}
		String auth = (this.auth != null) ? this.auth : env.get("ZK_AUTH");
		ZkClientSettings settings = new ZkClientSettings(this.namespace, Duration.ofSeconds(30), this.timeout,
				new ZkClientSettings.Retry(Duration.ofMillis(200), 3, Duration.ofSeconds(1)), auth(auth),
				new ZkClientSettings.Tls(this.ssl, this.keyStore, env.get("ZK_SSL_KEY_STORE_PASSWORD"), this.keyStoreType,
						this.trustStore, env.get("ZK_SSL_TRUST_STORE_PASSWORD"), this.trustStoreType, true),
				// always the address the operator gave (a port-forward, a proxy), never the servers' own
				false);
		CuratorFramework client = ZkClientFactory.create(settings, connectString, List.of());
		client.start();
		if (!client.blockUntilConnected((int) this.timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			client.close();
			throw new Exits.Unreachable("cannot reach ZooKeeper at " + connectString + " within " + Durations.text(this.timeout)
					+ " (--timeout): check --connect / ZK_CONNECT and that the ensemble runs; nothing was written");
		}
		return client;
	}

	private static ZkClientSettings.Auth auth(@Nullable String auth) {
		if (auth == null || auth.isBlank()) {
			return new ZkClientSettings.Auth("digest", null, false);
		}
		int colon = auth.indexOf(':');
		if (colon < 1) {
			throw new IllegalArgumentException("--auth / ZK_AUTH is not scheme:credentials (for example "
					+ "digest:user:password)");
		}
		return new ZkClientSettings.Auth(auth.substring(0, colon), auth.substring(colon + 1), false);
	}

}
