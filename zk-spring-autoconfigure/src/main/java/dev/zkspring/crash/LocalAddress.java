package dev.zkspring.crash;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.client.ConnectStringParser;

/**
 * The address to publish when none is configured: that of the interface which routes to the first
 * ZooKeeper server (a UDP "connect" sends nothing, it only picks the route), since peers that reach the
 * same ensemble most likely reach this interface too; the host's own address otherwise.
 */
final class LocalAddress {

	private static final Log logger = LogFactory.getLog(CrashDetector.class);

	private LocalAddress() {
	}

	static String towardZooKeeper(CuratorFramework client) {
		try (DatagramSocket probe = new DatagramSocket()) {
			InetSocketAddress server = new ConnectStringParser(client.getZookeeperClient().getCurrentConnectionString())
				.getServerAddresses()
				.get(0);
			probe.connect(new InetSocketAddress(server.getHostString(), server.getPort()));
			InetAddress local = probe.getLocalAddress();
			if (local != null && !local.isAnyLocalAddress()) {
				return local.getHostAddress();
			}
		}
		catch (Exception ex) {
			logger.debug("Could not tell the local address toward ZooKeeper", ex);
		}
		try {
			return InetAddress.getLocalHost().getHostAddress();
		}
		catch (java.io.IOException ex) {
			return "127.0.0.1";
		}
	}

}
