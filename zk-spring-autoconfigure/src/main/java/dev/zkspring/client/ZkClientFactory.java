package dev.zkspring.client;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.ACL;
import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * The one place a {@link CuratorFramework} is built from {@link ZkClientSettings}. It needs no application
 * context, so the code that loads configuration before any bean exists and the auto-configuration
 * build the same client the same way.
 */
public final class ZkClientFactory {

	private static final List<ACL> CREATOR_ONLY = ZooDefs.Ids.CREATOR_ALL_ACL;

	private ZkClientFactory() {
	}

	/**
	 * Build, but do not start, a client for the given ensemble.
	 * @param settings the values of the bound {@code zk.*} properties
	 * @param connectString where to connect: {@code zk.connect}, or the embedded server's address
	 * @param customizers applied in order after the properties
	 * @return a client that is not yet started
	 * @throws ZkStartupException naming the property when a setting cannot work
	 */
	public static CuratorFramework create(ZkClientSettings settings, @Nullable String connectString,
			List<CuratorFrameworkCustomizer> customizers) {
		if (!StringUtils.hasText(connectString)) {
			throw new ZkStartupException(
					"zk-spring has no ZooKeeper to connect to: zk.connect is not set and the embedded server is off.",
					"Set zk.connect to your ensemble (for example zk.connect=zk1:2181,zk2:2181,zk3:2181), or set "
							+ "zk.embedded.enabled=true to start an in-process ZooKeeper for development. "
							+ "To run without ZooKeeper, set zk.enabled=false.");
		}
		ConnectString.validate(connectString);
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(millis("zk.session-timeout", settings.sessionTimeout()))
			.connectionTimeoutMs(millis("zk.connection-timeout", settings.connectionTimeout()))
			.retryPolicy(retryPolicy(settings.retry()))
			.namespace(namespace(settings.namespace()))
			.zkClientConfig(ClientTls.clientConfig(settings.tls()))
			.ensembleTracker(settings.ensembleTracker());
		boolean authenticated = applyAuth(builder, settings.auth());
		customizers.forEach((customizer) -> customizer.customize(builder));
		ZooKeeperLogging.warnIfRepliesAreLogged();
		CuratorFramework client = builder.build();
		client.getConnectionStateListenable().addListener(new ConnectionStateLogger(connectString));
		OwnedPaths.register(client, authenticated ? PathOwner.checking(settings.auth()) : PathOwner.unchecked());
		return client;
	}

	/**
	 * Start the client and wait for its first connection (not in a {@link RunWithoutZooKeeper}, which only
	 * starts it).
	 * @param client a client from {@link #create}
	 * @param connectionTimeout how long to wait ({@code zk.connection-timeout})
	 * @throws ZkStartupException naming the connect string and the timeout when no connection comes
	 */
	public static void start(CuratorFramework client, Duration connectionTimeout) {
		client.start();
		if (RunWithoutZooKeeper.reason() != null) {
			// beans get their client, connecting in the background; nothing of this run waits for it
			return;
		}
		boolean connected;
		try {
			connected = client.blockUntilConnected(millis("zk.connection-timeout", connectionTimeout),
					TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			client.close();
			throw new ZkStartupException("Interrupted while connecting to ZooKeeper at '"
					+ client.getZookeeperClient().getCurrentConnectionString() + "'.", "Retry the startup.", ex);
		}
		if (!connected) {
			String connect = client.getZookeeperClient().getCurrentConnectionString();
			client.close();
			throw new ZkStartupException(
					"Could not connect to ZooKeeper at '" + connect + "' within " + connectionTimeout
							+ " (zk.connection-timeout).",
					"Check that the ensemble in zk.connect is running and reachable from this host and that the "
							+ "TLS settings (zk.ssl.*) match its client port, or raise zk.connection-timeout.");
		}
		checkNamespace(client);
	}

	/**
	 * Start the client and wait for its first connection without failing, for callers that can go on
	 * without ZooKeeper (the configuration snapshot). Unlike {@link #start}, a client that does not
	 * connect in time stays started and keeps connecting in the background.
	 * @param client a client from {@link #create}
	 * @param connectionTimeout how long to wait ({@code zk.connection-timeout})
	 * @return whether the client connected within the timeout
	 */
	public static boolean tryStart(CuratorFramework client, Duration connectionTimeout) {
		int timeout = millis("zk.connection-timeout", connectionTimeout);
		client.start();
		boolean connected;
		try {
			connected = client.blockUntilConnected(timeout, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
		if (connected) {
			checkNamespace(client);
		}
		return connected;
	}

	/** The namespace node is ours, or the client is closed and the startup fails naming it. */
	private static void checkNamespace(CuratorFramework client) {
		try {
			OwnedPaths.ensureAtStartup(client, "/");
		}
		catch (RuntimeException ex) {
			client.close();
			throw ex;
		}
	}

	private static boolean applyAuth(CuratorFrameworkFactory.Builder builder, ZkClientSettings.Auth auth) {
		String credentials = auth.credentials();
		if (credentials == null) {
			return false;
		}
		String scheme = auth.scheme();
		if (!StringUtils.hasText(scheme)) {
			throw new ZkStartupException("zk.auth.scheme is empty while zk.auth.credentials is set.",
					"Set zk.auth.scheme to the ZooKeeper authentication scheme, usually digest.");
		}
		if ("digest".equals(scheme) && (credentials.indexOf(':') < 1)) {
			// never echo the value: it is a secret
			throw new ZkStartupException(
					"zk.auth.credentials is not in the form user:password that the digest scheme needs.",
					"Set zk.auth.credentials to user:password, with a non-empty user name before the first ':'.");
		}
		builder.authorization(scheme, credentials.getBytes(StandardCharsets.UTF_8))
			.aclProvider(new CreatorOnlyAclProvider());
		return true;
	}

	private static ExponentialBackoffRetry retryPolicy(ZkClientSettings.Retry retry) {
		int baseSleep = millis("zk.retry.base-sleep", retry.baseSleep());
		int maxSleep = millis("zk.retry.max-sleep", retry.maxSleep());
		if (retry.maxRetries() < 0 || retry.maxRetries() > 29) {
			throw new ZkStartupException("zk.retry.max-retries is " + retry.maxRetries() + ".",
					"Set zk.retry.max-retries between 0 and 29 (Curator's exponential backoff allows no more).");
		}
		if (maxSleep < baseSleep) {
			throw new ZkStartupException("zk.retry.max-sleep (" + retry.maxSleep()
					+ ") is shorter than zk.retry.base-sleep (" + retry.baseSleep() + ").",
					"Set zk.retry.max-sleep to at least zk.retry.base-sleep.");
		}
		return new ExponentialBackoffRetry(baseSleep, retry.maxRetries(), maxSleep);
	}

	private static @Nullable String namespace(@Nullable String namespace) {
		if (!StringUtils.hasText(namespace)) {
			return null;
		}
		String trimmed = namespace.startsWith("/") ? namespace.substring(1) : namespace;
		try {
			PathUtils.validatePath("/" + trimmed);
		}
		catch (IllegalArgumentException ex) {
			throw new ZkStartupException(
					"zk.namespace '" + namespace + "' is not a valid znode path: " + ex.getMessage() + ".",
					"Set zk.namespace to a path such as my-app or team/my-app, without a trailing '/'.");
		}
		return trimmed;
	}

	private static int millis(String property, @Nullable Duration duration) {
		if (duration == null || duration.isNegative() || duration.isZero()
				|| duration.toMillis() > Integer.MAX_VALUE) {
			throw new ZkStartupException(property + " is " + duration + ", which is not a usable timeout.",
					"Set " + property + " to a positive duration such as 10s.");
		}
		return (int) duration.toMillis();
	}

	/** Every node zk-spring creates, parents included, is readable and writable by its creator only. */
	private static final class CreatorOnlyAclProvider implements ACLProvider {

		@Override
		public List<ACL> getDefaultAcl() {
			return CREATOR_ONLY;
		}

		@Override
		public List<ACL> getAclForPath(String path) {
			return CREATOR_ONLY;
		}

	}

}
