package dev.zkspring.test;

import java.lang.management.ManagementFactory;
import java.util.List;

import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.apache.curator.framework.CuratorFramework;

/**
 * Counts the requests an in-process server received on one client's connection (its JMX connection
 * bean), so the config and fleet tests can say what one change costs an instance.
 */
public final class ServerRequests {

	private ServerRequests() {
	}

	/** Requests the server received on this client's connection so far. */
	public static long packetsReceived(CuratorFramework client) throws Exception {
		String session = "0x" + Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId());
		MBeanServer server = ManagementFactory.getPlatformMBeanServer();
		for (ObjectName name : server.queryNames(new ObjectName("org.apache.ZooKeeperService:*"), null)) {
			if (name.toString().contains("Connections") && session.equals(server.getAttribute(name, "SessionId"))) {
				return (Long) server.getAttribute(name, "PacketsReceived");
			}
		}
		throw new IllegalStateException("no connection bean for session " + session);
	}

	/** Requests the server received on this client's connection while the action ran. */
	public static long during(CuratorFramework client, Action action) throws Exception {
		long before = packetsReceived(client);
		action.run();
		return packetsReceived(client) - before;
	}

	/**
	 * The fewest requests of one change each, over these values: the fewest of several, so a ping or a
	 * lease read of the session's falling into one count cannot fail the test.
	 */
	public static long fewest(CuratorFramework client, List<String> values, Change change) throws Exception {
		long fewest = Long.MAX_VALUE;
		for (String value : values) {
			fewest = Math.min(fewest, during(client, () -> change.to(value)));
		}
		return fewest;
	}

	/** What a test does while its requests are counted. */
	@FunctionalInterface
	public interface Action {

		void run() throws Exception;

	}

	/** One change to a value, applied before it returns. */
	@FunctionalInterface
	public interface Change {

		void to(String value) throws Exception;

	}

}
