package dev.zkspring.client;

import org.apache.curator.framework.CuratorFramework;

/** Reads and formats the session id the way ZooKeeper's own logs show it (0x...). */
final class SessionIds {

	private SessionIds() {
	}

	static long current(CuratorFramework client) {
		try {
			return client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	static String format(long sessionId) {
		return "0x" + Long.toHexString(sessionId);
	}

}
