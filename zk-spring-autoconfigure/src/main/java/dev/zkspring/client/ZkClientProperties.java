package dev.zkspring.client;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code zk.*} of the connection: whether zk-spring is on, where the ensemble is and how to reach it
 * (retries, authentication, TLS). The config center binds it at bootstrap and the auto-configuration as
 * a bean, so each default is written here once; each other capability binds its own
 * {@code zk.<capability>.*} class beside it.
 */
@ConfigurationProperties(ZkClientProperties.PREFIX)
public class ZkClientProperties {

	/** The prefix all zk-spring properties share. */
	public static final String PREFIX = "zk";

	/** Whether zk-spring is on; false turns every part of the starter off. */
	private boolean enabled = true;

	/** ZooKeeper ensemble to connect to, as host:port[,host:port...][/chroot]. */
	private @Nullable String connect;

	/** Path prefix, without a leading slash, under which every node of this application lives. */
	private @Nullable String namespace;

	/** How long the ensemble keeps this client's session, and its ephemeral nodes, after losing contact. */
	private Duration sessionTimeout = Duration.ofSeconds(30);

	/** How long to wait for a connection, both at startup and for each attempt to (re)connect. */
	private Duration connectionTimeout = Duration.ofSeconds(10);

	/**
	 * Whether the client follows the ensemble's own list of servers (/zookeeper/config) in place of
	 * zk.connect; turn off behind a proxy, NAT or Kubernetes Service whose address the instances must keep using.
	 */
	private boolean ensembleTracker = true;

	private final Retry retry = new Retry();

	private final Auth auth = new Auth();

	private final Ssl ssl = new Ssl();

	public boolean isEnsembleTracker() {
		return this.ensembleTracker;
	}

	public void setEnsembleTracker(boolean ensembleTracker) {
		this.ensembleTracker = ensembleTracker;
	}

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public @Nullable String getConnect() {
		return this.connect;
	}

	public void setConnect(@Nullable String connect) {
		this.connect = connect;
	}

	public @Nullable String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	public Duration getSessionTimeout() {
		return this.sessionTimeout;
	}

	public void setSessionTimeout(Duration sessionTimeout) {
		this.sessionTimeout = sessionTimeout;
	}

	public Duration getConnectionTimeout() {
		return this.connectionTimeout;
	}

	public void setConnectionTimeout(Duration connectionTimeout) {
		this.connectionTimeout = connectionTimeout;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Auth getAuth() {
		return this.auth;
	}

	public Ssl getSsl() {
		return this.ssl;
	}

	/**
	 * The values the client is built from, for {@link ZkClientFactory}.
	 * @param recordRoots {@code zk.lock.root} and {@code zk.leader.root}, below which a repair of ACLs
	 * removes what others created instead of adopting it
	 * @return the settings of {@code zk.namespace}, the timeouts, {@code zk.retry.*}, {@code zk.auth.*} and
	 * {@code zk.ssl.*}
	 */
	public ZkClientSettings toClientSettings(List<String> recordRoots) {
		Ssl ssl = this.ssl;
		return new ZkClientSettings(this.namespace, this.sessionTimeout, this.connectionTimeout,
				new ZkClientSettings.Retry(this.retry.getBaseSleep(), this.retry.getMaxRetries(),
						this.retry.getMaxSleep()),
				new ZkClientSettings.Auth(this.auth.getScheme(), this.auth.getCredentials(), this.auth.isRepairAcls(),
						List.copyOf(recordRoots)),
				new ZkClientSettings.Tls(ssl.isEnabled(), ssl.getKeyStore(), ssl.getKeyStorePassword(),
						ssl.getKeyStoreType(), ssl.getTrustStore(), ssl.getTrustStorePassword(), ssl.getTrustStoreType(),
						ssl.isHostnameVerification()),
				this.ensembleTracker);
	}

	/** How operations are retried while the connection is down (exponential backoff). */
	public static class Retry {

		/** Sleep before the first retry; each later retry sleeps up to twice as long. */
		private Duration baseSleep = Duration.ofMillis(100);

		/** How many times an operation is retried before it fails (at most 29). */
		private int maxRetries = 5;

		/** Upper bound of the sleep between two retries. */
		private Duration maxSleep = Duration.ofSeconds(2);

		public Duration getBaseSleep() {
			return this.baseSleep;
		}

		public void setBaseSleep(Duration baseSleep) {
			this.baseSleep = baseSleep;
		}

		public int getMaxRetries() {
			return this.maxRetries;
		}

		public void setMaxRetries(int maxRetries) {
			this.maxRetries = maxRetries;
		}

		public Duration getMaxSleep() {
			return this.maxSleep;
		}

		public void setMaxSleep(Duration maxSleep) {
			this.maxSleep = maxSleep;
		}

	}

	/** Who this client is to ZooKeeper; when set, every node zk-spring creates is creator-only. */
	public static class Auth {

		/** Authentication scheme; "digest" expects credentials as user:password. */
		private String scheme = "digest";

		/** Credentials for the scheme, such as user:password for digest; unset means no authentication. */
		private @Nullable String credentials;

		/** Whether a node zk-spring uses that others may also write is made creator-only instead of failing startup. */
		private boolean repairAcls;

		public String getScheme() {
			return this.scheme;
		}

		public void setScheme(String scheme) {
			this.scheme = scheme;
		}

		public @Nullable String getCredentials() {
			return this.credentials;
		}

		public void setCredentials(@Nullable String credentials) {
			this.credentials = credentials;
		}

		public boolean isRepairAcls() {
			return this.repairAcls;
		}

		public void setRepairAcls(boolean repairAcls) {
			this.repairAcls = repairAcls;
		}

	}

	/** TLS to the ensemble's secure client port (Netty client socket). */
	public static class Ssl {

		/** Whether to connect with TLS; the ensemble must listen on a secure client port. */
		private boolean enabled;

		/** Key store file holding this client's certificate, for servers that require client auth. */
		private @Nullable Path keyStore;

		/** Password of the key store. */
		private @Nullable String keyStorePassword;

		/** Type of the key store, such as PKCS12 or JKS; unset means detect it from the file name. */
		private @Nullable String keyStoreType;

		/** Trust store file holding the certificates that sign the servers' certificates. */
		private @Nullable Path trustStore;

		/** Password of the trust store. */
		private @Nullable String trustStorePassword;

		/** Type of the trust store, such as PKCS12 or JKS; unset means detect it from the file name. */
		private @Nullable String trustStoreType;

		/** Whether the server's certificate must match the host name it was reached by; only true is supported. */
		private boolean hostnameVerification = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Path getKeyStore() {
			return this.keyStore;
		}

		public void setKeyStore(@Nullable Path keyStore) {
			this.keyStore = keyStore;
		}

		public @Nullable String getKeyStorePassword() {
			return this.keyStorePassword;
		}

		public void setKeyStorePassword(@Nullable String keyStorePassword) {
			this.keyStorePassword = keyStorePassword;
		}

		public @Nullable String getKeyStoreType() {
			return this.keyStoreType;
		}

		public void setKeyStoreType(@Nullable String keyStoreType) {
			this.keyStoreType = keyStoreType;
		}

		public @Nullable Path getTrustStore() {
			return this.trustStore;
		}

		public void setTrustStore(@Nullable Path trustStore) {
			this.trustStore = trustStore;
		}

		public @Nullable String getTrustStorePassword() {
			return this.trustStorePassword;
		}

		public void setTrustStorePassword(@Nullable String trustStorePassword) {
			this.trustStorePassword = trustStorePassword;
		}

		public @Nullable String getTrustStoreType() {
			return this.trustStoreType;
		}

		public void setTrustStoreType(@Nullable String trustStoreType) {
			this.trustStoreType = trustStoreType;
		}

		public boolean isHostnameVerification() {
			return this.hostnameVerification;
		}

		public void setHostnameVerification(boolean hostnameVerification) {
			this.hostnameVerification = hostnameVerification;
		}

	}

}
