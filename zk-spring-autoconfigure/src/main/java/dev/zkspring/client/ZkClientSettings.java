package dev.zkspring.client;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The values {@link ZkClientFactory} builds a client from, so this package needs nothing from the
 * auto-configuration: whoever binds {@code zk.*} converts it into one of these. Error messages still
 * name the {@code zk.*} properties the values come from.
 * @param namespace path prefix of every node, without a leading slash; {@code null} for none
 * @param sessionTimeout {@code zk.session-timeout}
 * @param connectionTimeout {@code zk.connection-timeout}
 * @param retry {@code zk.retry.*}
 * @param auth {@code zk.auth.*}
 * @param tls {@code zk.ssl.*}
 * @param ensembleTracker {@code zk.ensemble-tracker}: whether Curator replaces the connect string with the
 * servers' own addresses from {@code /zookeeper/config}
 */
public record ZkClientSettings(@Nullable String namespace, Duration sessionTimeout, Duration connectionTimeout,
		Retry retry, Auth auth, Tls tls, boolean ensembleTracker) {

	/** With Curator's ensemble tracker on, its default. */
	public ZkClientSettings(@Nullable String namespace, Duration sessionTimeout, Duration connectionTimeout,
			Retry retry, Auth auth, Tls tls) {
		this(namespace, sessionTimeout, connectionTimeout, retry, auth, tls, true);
	}

	/**
	 * Exponential backoff of operations while the connection is down.
	 * @param baseSleep {@code zk.retry.base-sleep}
	 * @param maxRetries {@code zk.retry.max-retries}
	 * @param maxSleep {@code zk.retry.max-sleep}
	 */
	public record Retry(Duration baseSleep, int maxRetries, Duration maxSleep) {
	}

	/**
	 * Who this client is to ZooKeeper; with credentials, every node zk-spring creates is creator-only.
	 * @param scheme {@code zk.auth.scheme}
	 * @param credentials {@code zk.auth.credentials}; {@code null} for none
	 * @param repairAcls {@code zk.auth.repair-acls}: whether a node zk-spring uses that others may also
	 * write is made creator-only instead of failing the startup
	 * @param recordRoots {@code zk.lock.root} and {@code zk.leader.root}: a repair removes what others
	 * created below them (holder nodes, records) instead of adopting it
	 */
	public record Auth(String scheme, @Nullable String credentials, boolean repairAcls, List<String> recordRoots) {

		/** Without record roots: a repair then adopts every node it finds. */
		public Auth(String scheme, @Nullable String credentials, boolean repairAcls) {
			this(scheme, credentials, repairAcls, List.of());
		}

		/** Never shows the credentials, which are a secret. */
		@Override
		public String toString() {
			return "Auth[scheme=" + this.scheme + ", credentials=" + ((this.credentials != null) ? "******" : "none")
					+ ", repairAcls=" + this.repairAcls + ", recordRoots=" + this.recordRoots + "]";
		}

	}

	/**
	 * TLS to the ensemble's secure client port.
	 * @param enabled {@code zk.ssl.enabled}
	 * @param keyStore {@code zk.ssl.key-store}
	 * @param keyStorePassword {@code zk.ssl.key-store-password}
	 * @param keyStoreType {@code zk.ssl.key-store-type}
	 * @param trustStore {@code zk.ssl.trust-store}
	 * @param trustStorePassword {@code zk.ssl.trust-store-password}
	 * @param trustStoreType {@code zk.ssl.trust-store-type}
	 * @param hostnameVerification {@code zk.ssl.hostname-verification}; only {@code true} can be honoured
	 */
	public record Tls(boolean enabled, @Nullable Path keyStore, @Nullable String keyStorePassword,
			@Nullable String keyStoreType, @Nullable Path trustStore, @Nullable String trustStorePassword,
			@Nullable String trustStoreType, boolean hostnameVerification) {

		/** Never shows the passwords, which are secrets. */
		@Override
		public String toString() {
			return "Tls[enabled=" + this.enabled + ", keyStore=" + this.keyStore + ", trustStore=" + this.trustStore
					+ ", hostnameVerification=" + this.hostnameVerification + "]";
		}

	}

}
