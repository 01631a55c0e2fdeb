package dev.zkspring.client;

import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.slf4j.LoggerFactory;

/**
 * ZooKeeper's own client logs every reply it receives at DEBUG, as hex: whole configuration documents,
 * secrets included. zk-spring cannot redact a log line it does not write, so it says so once.
 */
final class ZooKeeperLogging {

	static final String CLIENT_LOGGER = "org.apache.zookeeper.ClientCnxn";

	private static final Log logger = LogFactory.getLog(ZkClientFactory.class);

	private static final AtomicBoolean warned = new AtomicBoolean();

	private ZooKeeperLogging() {
	}

	static void warnIfRepliesAreLogged() {
		if (LoggerFactory.getLogger(CLIENT_LOGGER).isDebugEnabled() && warned.compareAndSet(false, true)) {
			logger.warn(CLIENT_LOGGER + " logs at DEBUG or finer: ZooKeeper's client then writes every reply it "
					+ "receives to the log, the configuration documents and any secrets in them included. Set "
					+ "logging.level.org.apache.zookeeper=INFO (or higher) outside of debugging sessions.");
		}
	}

	/** For tests: warn again on the next client. */
	static void forgetWarning() {
		warned.set(false);
	}

}
