package dev.zkspring.config;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;

import dev.zkspring.client.ZkStartupException;

/**
 * What the config center does when a context or canary document is refused or cannot be read: at
 * startup it fails (with {@code zk.config.fail-fast}) or says it starts without that context; while
 * running it keeps the last good version, says so and publishes a {@link ZkConfigRejectedEvent}. A
 * refused canary never fails the startup. Lines name znodes, versions and reasons, never values.
 */
final class ContextRefusals {

	private static final Log runningLogger = LogFactory.getLog(ZkConfigInitializer.class);

	private final ConfigSettings config;

	private final Log logger;

	/**
	 * @param config the bound {@code zk.*} settings ({@code zk.config.fail-fast}, the document size limit)
	 * @param logger where startup lines go (a deferred log before the logging system is initialised)
	 */
	ContextRefusals(ConfigSettings config, Log logger) {
		this.config = config;
		this.logger = logger;
	}

	void rejectedAtStartup(JsonZnodePropertySourceLocator.Rejection rejection,
			@Nullable ZnodePropertySource kept) {
		String description = "The configuration in znode " + rejection.znode() + " (version " + rejection.version()
				+ ") was rejected: " + rejection.reason() + ".";
		if (this.config.failFast()) {
			String decryptionAction = ValueDecryption.action(rejection.reason());
			throw new ZkStartupException(description, (decryptionAction != null) ? decryptionAction
					: "Fix the document in " + rejection.znode() + ": one UTF-8 JSON object, at most "
							+ this.config.maxDocumentSize() + " (zk.config.max-document-size), at most "
							+ JsonDocumentParser.MAX_DEPTH + " levels deep. Or set zk.config.fail-fast=false to start "
							+ "without that context.");
		}
		this.logger.warn(description + " Starting without that context (zk.config.fail-fast=false).");
	}

	void unreadableAtStartup(String znode, KeeperException.Code code, @Nullable ZnodePropertySource kept) {
		String description = "The config context znode " + znode + " cannot be read (" + code + "): "
				+ ((code == KeeperException.Code.NOAUTH) ? "its ACL does not let this application's identity read it."
						: "ZooKeeper refused the read.");
		if (this.config.failFast()) {
			throw new ZkStartupException(description, "This is an ACL/auth problem: give the identity in zk.auth.* "
					+ "read permission on " + znode + " (setAcl), or set zk.auth.scheme and zk.auth.credentials to an "
					+ "identity that has it; or set zk.config.fail-fast=false to start without that context.");
		}
		this.logger.warn(description + " Starting without that context (zk.config.fail-fast=false); the other contexts "
				+ "are loaded, and no snapshot is written until every context can be read.");
	}

	static void unreadableWhileRunning(String znode, KeeperException.Code code,
			@Nullable ZnodePropertySource kept) {
		runningLogger.warn("The config context znode " + znode + " cannot be read (" + code + ", an ACL/auth problem); "
				+ ((kept != null) ? "its last good version (" + kept.getVersion() + ") stays in force"
						: "the context stays empty")
				+ " and the other contexts are unaffected");
	}

	static void rejectedWhileRunning(ConfigurableApplicationContext context,
			JsonZnodePropertySourceLocator.Rejection rejection, @Nullable ZnodePropertySource kept) {
		runningLogger.warn("Rejected the configuration in znode " + rejection.znode() + " (version " + rejection.version()
				+ "): " + rejection.reason() + "; "
				+ ((kept != null) ? "its last good version (" + kept.getVersion() + ") stays in force"
						: "the context stays empty"));
		context.publishEvent(new ZkConfigRejectedEvent(context, rejection.znode(), rejection.version(),
				rejection.reason(), rejection.key()));
	}

	void canaryRejectedAtStartup(JsonZnodePropertySourceLocator.Rejection rejection,
			@Nullable ZnodePropertySource base) {
		// a bad canary never fails the startup: the base document is there to run
		this.logger.warn("Refused the canary in znode " + rejection.znode() + " (version " + rejection.version() + "): "
				+ rejection.reason() + "; this instance runs the base document");
	}

	static void canaryRejectedWhileRunning(ConfigurableApplicationContext context,
			JsonZnodePropertySourceLocator.Rejection rejection, @Nullable ZnodePropertySource base) {
		runningLogger.warn("Refused the canary in znode " + rejection.znode() + " (version " + rejection.version() + "): "
				+ rejection.reason() + "; this instance runs the base document");
		context.publishEvent(new ZkConfigRejectedEvent(context, rejection.znode(), rejection.version(),
				rejection.reason(), rejection.key()));
	}

}
