package dev.zkspring.autoconfigure;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;
import org.springframework.util.unit.DataSize;

import dev.zkspring.client.ZkClientSettings;
import dev.zkspring.leader.RevokePolicy;

/**
 * Everything a user sets under {@code zk.*}: where the ensemble is, how to reach it and whether to
 * run one in-process. One bean, bound once, read by every zk-spring feature.
 */
@ConfigurationProperties(ZkProperties.PREFIX)
public class ZkProperties {

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

	private final Retry retry = new Retry();

	private final Auth auth = new Auth();

	private final Ssl ssl = new Ssl();

	private final Embedded embedded = new Embedded();

	private final Config config = new Config();

	private final Refresh refresh = new Refresh();

	private final Lock lock = new Lock();

	private final Leader leader = new Leader();

	private final Quartz quartz = new Quartz();

	private final Fleet fleet = new Fleet();

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

	public Embedded getEmbedded() {
		return this.embedded;
	}

	public Config getConfig() {
		return this.config;
	}

	public Refresh getRefresh() {
		return this.refresh;
	}

	public Lock getLock() {
		return this.lock;
	}

	public Leader getLeader() {
		return this.leader;
	}

	public Quartz getQuartz() {
		return this.quartz;
	}

	public Fleet getFleet() {
		return this.fleet;
	}

	/**
	 * The values the client is built from, for the client package, which does not know these properties.
	 * @return the settings of {@code zk.namespace}, the timeouts, {@code zk.retry.*}, {@code zk.auth.*} and
	 * {@code zk.ssl.*}
	 */
	public ZkClientSettings toClientSettings() {
		Ssl ssl = this.ssl;
		return new ZkClientSettings(this.namespace, this.sessionTimeout, this.connectionTimeout,
				new ZkClientSettings.Retry(this.retry.getBaseSleep(), this.retry.getMaxRetries(),
						this.retry.getMaxSleep()),
				new ZkClientSettings.Auth(this.auth.getScheme(), this.auth.getCredentials(), this.auth.isRepairAcls(),
						List.of(this.lock.getRoot(), this.leader.getRoot())),
				new ZkClientSettings.Tls(ssl.isEnabled(), ssl.getKeyStore(), ssl.getKeyStorePassword(),
						ssl.getKeyStoreType(), ssl.getTrustStore(), ssl.getTrustStorePassword(), ssl.getTrustStoreType(),
						ssl.isHostnameVerification()));
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

	/** An in-process ZooKeeper for development and demos; never enabled implicitly. */
	public static class Embedded {

		/** Whether to start an in-process ZooKeeper and connect to it instead of zk.connect. */
		private boolean enabled;

		/** Port the embedded server listens on, on the loopback address; 0 picks a free port. */
		private int port;

		/** Directory for the embedded server's data; unset means a temporary directory removed on close. */
		private @Nullable Path dataDir;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public @Nullable Path getDataDir() {
			return this.dataDir;
		}

		public void setDataDir(@Nullable Path dataDir) {
			this.dataDir = dataDir;
		}

	}

	/** Configuration kept as JSON documents in znodes, loaded before any bean is created and watched. */
	public static class Config {

		/** Whether to load configuration from ZooKeeper into the Environment at startup. */
		private boolean enabled = true;

		/** Znode under which the context nodes (application, application,{profile}, {name}, ...) live. */
		private String root = "/config";

		/** Name of the context every application reads, below its own. */
		private String defaultContext = "application";

		/** Name of this application's context; unset means spring.application.name. */
		private @Nullable String name;

		/** Separator between a context name and a profile in a context node's name. */
		private String profileSeparator = ",";

		/** Whether startup fails when a context document is bad or ZooKeeper cannot be reached without a snapshot. */
		private boolean failFast = true;

		/** Whether to watch the context nodes and apply changes while the application runs. */
		private boolean watch = true;

		/** Directory of the last-known-good snapshot; unset means ~/.zk-spring/config-snapshots. */
		private @Nullable Path snapshotDir;

		/** Whether to write the last-known-good snapshot and start from it when ZooKeeper is down; tests turn it off. */
		private boolean snapshotEnabled = true;

		/** Largest context document accepted; larger ones are rejected. */
		private DataSize maxDocumentSize = DataSize.ofMegabytes(1);

		/** Keys that decrypt {cipher} values of the documents. */
		@NestedConfigurationProperty
		private final ZkEncryptionProperties encryption = new ZkEncryptionProperties();

		public ZkEncryptionProperties getEncryption() {
			return this.encryption;
		}

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getRoot() {
			return this.root;
		}

		public void setRoot(String root) {
			this.root = root;
		}

		public String getDefaultContext() {
			return this.defaultContext;
		}

		public void setDefaultContext(String defaultContext) {
			this.defaultContext = defaultContext;
		}

		public @Nullable String getName() {
			return this.name;
		}

		public void setName(@Nullable String name) {
			this.name = name;
		}

		public String getProfileSeparator() {
			return this.profileSeparator;
		}

		public void setProfileSeparator(String profileSeparator) {
			this.profileSeparator = profileSeparator;
		}

		public boolean isFailFast() {
			return this.failFast;
		}

		public void setFailFast(boolean failFast) {
			this.failFast = failFast;
		}

		public boolean isWatch() {
			return this.watch;
		}

		public void setWatch(boolean watch) {
			this.watch = watch;
		}

		public @Nullable Path getSnapshotDir() {
			return this.snapshotDir;
		}

		public void setSnapshotDir(@Nullable Path snapshotDir) {
			this.snapshotDir = snapshotDir;
		}

		public boolean isSnapshotEnabled() {
			return this.snapshotEnabled;
		}

		public void setSnapshotEnabled(boolean snapshotEnabled) {
			this.snapshotEnabled = snapshotEnabled;
		}

		public DataSize getMaxDocumentSize() {
			return this.maxDocumentSize;
		}

		public void setMaxDocumentSize(DataSize maxDocumentSize) {
			this.maxDocumentSize = maxDocumentSize;
		}

	}

	/** Rebinding of @RefreshScope beans when the configuration in ZooKeeper changes. */
	public static class Refresh {

		/** Whether to rebind @RefreshScope beans in place, refusing changes that would break one. */
		private boolean enabled = true;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

	}

	/** Distributed locks taken with {@code @ZkLock} and {@code ZkLockTemplate}. */
	public static class Lock {

		/** Whether @ZkLock methods are locked and a ZkLockTemplate bean is defined. */
		private boolean enabled = true;

		/** Path under which each lock key gets its own container node. */
		private String root = "/locks";

		/** How long a caller waits for a busy lock when @ZkLock or the template names no wait time. */
		private Duration defaultWait = Duration.ofSeconds(3);

		/** Whether threads holding a lock are interrupted when the lock is lost or in doubt. */
		private boolean interruptOnLoss;

		/** How many further holders of this JVM may follow one another on a key before a waiting JVM goes. */
		private int maxLocalHandoffs = 16;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getRoot() {
			return this.root;
		}

		public void setRoot(String root) {
			this.root = root;
		}

		public Duration getDefaultWait() {
			return this.defaultWait;
		}

		public void setDefaultWait(Duration defaultWait) {
			this.defaultWait = defaultWait;
		}

		public boolean isInterruptOnLoss() {
			return this.interruptOnLoss;
		}

		public void setInterruptOnLoss(boolean interruptOnLoss) {
			this.interruptOnLoss = interruptOnLoss;
		}

		public int getMaxLocalHandoffs() {
			return this.maxLocalHandoffs;
		}

		public void setMaxLocalHandoffs(int maxLocalHandoffs) {
			this.maxLocalHandoffs = maxLocalHandoffs;
		}

	}

	/** Leader election among the instances of one application (a Curator leader latch). */
	public static class Leader {

		/** Whether this instance takes part in leader election; unset means only where something needs a leader (leader-gated Quartz jobs, @LeaderOnly methods). */
		private @Nullable Boolean enabled;

		/** Path under which each group has its election node. */
		private String root = "/leader";

		/** Election group, one node name; unset means spring.application.name. */
		private @Nullable String group;

		/** This instance's id in the election, fleet view and canary sets; set it for one that stays across restarts. */
		private @Nullable String id;

		/** How long a stopping leader waits for running jobs before it releases leadership. */
		private Duration drainTimeout = Duration.ofSeconds(30);

		/** How long a new leader waits before acting when its predecessor crashed or lost its session; opt-in for in-flight work. */
		private Duration takeoverDelay = Duration.ZERO;

		/** Named leader groups, each with an election of its own, listing the Quartz job names its leader runs. */
		private Map<String, List<String>> groups = new LinkedHashMap<>();

		/** How many leader groups an instance leads at most while another participant leads fewer; unset means groups stay where they were won. */
		private @Nullable Integer maxGroups;

		/** How long an instance keeps a leader group it took before it may hand it over to balance the groups. */
		private Duration rebalanceHold = Duration.ofSeconds(30);

		public Map<String, List<String>> getGroups() {
			return this.groups;
		}

		public void setGroups(Map<String, List<String>> groups) {
			this.groups = groups;
		}

		public @Nullable Integer getMaxGroups() {
			return this.maxGroups;
		}

		public void setMaxGroups(@Nullable Integer maxGroups) {
			this.maxGroups = maxGroups;
		}

		public Duration getRebalanceHold() {
			return this.rebalanceHold;
		}

		public void setRebalanceHold(Duration rebalanceHold) {
			this.rebalanceHold = rebalanceHold;
		}

		public @Nullable Boolean getEnabled() {
			return this.enabled;
		}

		public void setEnabled(@Nullable Boolean enabled) {
			this.enabled = enabled;
		}

		public String getRoot() {
			return this.root;
		}

		public void setRoot(String root) {
			this.root = root;
		}

		public @Nullable String getGroup() {
			return this.group;
		}

		public void setGroup(@Nullable String group) {
			this.group = group;
		}

		public @Nullable String getId() {
			return this.id;
		}

		public void setId(@Nullable String id) {
			this.id = id;
		}

		public Duration getDrainTimeout() {
			return this.drainTimeout;
		}

		public void setDrainTimeout(Duration drainTimeout) {
			this.drainTimeout = drainTimeout;
		}

		public Duration getTakeoverDelay() {
			return this.takeoverDelay;
		}

		public void setTakeoverDelay(Duration takeoverDelay) {
			this.takeoverDelay = takeoverDelay;
		}

	}

	/** Quartz jobs that fire on the leader only. */
	public static class Quartz {

		/** Whether Spring Boot's Quartz scheduler runs only while this instance leads. */
		private boolean leaderGated = true;

		/** What happens to a job still running when leadership is revoked: let it finish, or interrupt it. */
		private RevokePolicy onRevoke = RevokePolicy.STANDBY;

		/** Per Quartz job name: a schedule (cron or interval) and pause switch that override the job's trigger, and its shards, applied at runtime. */
		private Map<String, Job> jobs = new LinkedHashMap<>();

		/** How many recent runs per job are kept in ZooKeeper for the endpoint and the status page. */
		private int historySize = 20;

		/** How long a run, pause or resume request waits for the leader's answer before it is withdrawn. */
		private Duration requestTimeout = Duration.ofSeconds(10);

		public boolean isLeaderGated() {
			return this.leaderGated;
		}

		public void setLeaderGated(boolean leaderGated) {
			this.leaderGated = leaderGated;
		}

		public RevokePolicy getOnRevoke() {
			return this.onRevoke;
		}

		public void setOnRevoke(RevokePolicy onRevoke) {
			this.onRevoke = onRevoke;
		}

		public Map<String, Job> getJobs() {
			return this.jobs;
		}

		public void setJobs(Map<String, Job> jobs) {
			this.jobs = jobs;
		}

		public int getHistorySize() {
			return this.historySize;
		}

		public void setHistorySize(int historySize) {
			this.historySize = historySize;
		}

		public Duration getRequestTimeout() {
			return this.requestTimeout;
		}

		public void setRequestTimeout(Duration requestTimeout) {
			this.requestTimeout = requestTimeout;
		}

		/** The schedule of one job, from any configuration source (so a document in ZooKeeper changes it at runtime). */
		public static class Job {

			/** Cron expression replacing the job's trigger schedule; exclusive with interval. */
			private @Nullable String cron;

			/** Fixed interval replacing the job's trigger schedule; exclusive with cron, positive. */
			private @Nullable Duration interval;

			/** Whether the job is paused on the leader; an operator cannot resume a job paused here. */
			private boolean paused;

			/** Number of shards each fire time of the job runs, each once across the live instances (1 to 1000); unset: not sharded. */
			private @Nullable Integer shards;

			/** Parameter of each shard, as index=value pairs separated by commas (0=Beijing,1=Shanghai); needs shards. */
			private @Nullable String shardParameters;

			public @Nullable String getCron() {
				return this.cron;
			}

			public void setCron(@Nullable String cron) {
				this.cron = cron;
			}

			public @Nullable Duration getInterval() {
				return this.interval;
			}

			public void setInterval(@Nullable Duration interval) {
				this.interval = interval;
			}

			public boolean isPaused() {
				return this.paused;
			}

			public void setPaused(boolean paused) {
				this.paused = paused;
			}

			public @Nullable Integer getShards() {
				return this.shards;
			}

			public void setShards(@Nullable Integer shards) {
				this.shards = shards;
			}

			public @Nullable String getShardParameters() {
				return this.shardParameters;
			}

			public void setShardParameters(@Nullable String shardParameters) {
				this.shardParameters = shardParameters;
			}

		}

	}

	/** The fleet view: each instance publishes its state in an ephemeral node under one path per application. */
	public static class Fleet {

		/** Whether this instance publishes its state (applied configuration, leadership, held keys) for the fleet view. */
		private boolean enabled = true;

		/** Path under which each application has its fleet node per instance, {root}/{spring.application.name}/{instance id}. */
		private String root = "/fleet";

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public String getRoot() {
			return this.root;
		}

		public void setRoot(String root) {
			this.root = root;
		}

	}

}
