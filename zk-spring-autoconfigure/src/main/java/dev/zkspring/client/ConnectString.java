package dev.zkspring.client;

import org.apache.zookeeper.common.PathUtils;

/**
 * Checks a connect string before ZooKeeper sees it, because ZooKeeper's own parser fails late and with
 * messages that do not name the property.
 */
final class ConnectString {

	private static final String PROPERTY = "zk.connect";

	private static final String FORM = "Set zk.connect to host:port pairs separated by commas, optionally followed by "
			+ "a chroot path, for example zk1:2181,zk2:2181,zk3:2181/my-app; write IPv6 addresses in brackets ([::1]:2181).";

	private ConnectString() {
	}

	static void validate(String connect) {
		int slash = connect.indexOf('/');
		String hosts = (slash >= 0) ? connect.substring(0, slash) : connect;
		if (slash >= 0 && slash < connect.length() - 1) {
			validateChroot(connect, connect.substring(slash));
		}
		for (String host : hosts.split(",", -1)) {
			validateHost(connect, host.trim());
		}
	}

	private static void validateChroot(String connect, String chroot) {
		try {
			PathUtils.validatePath(chroot);
		}
		catch (IllegalArgumentException ex) {
			throw invalid(connect, "the chroot '" + chroot + "' is not a valid znode path (" + ex.getMessage() + ")");
		}
	}

	private static void validateHost(String connect, String hostAndPort) {
		if (hostAndPort.isEmpty()) {
			throw invalid(connect, "it has an empty server entry");
		}
		String host = hostAndPort;
		String port = null;
		if (hostAndPort.startsWith("[")) {
			int close = hostAndPort.indexOf(']');
			if (close < 0) {
				throw invalid(connect, "'" + hostAndPort + "' opens an IPv6 address with '[' but never closes it");
			}
			host = hostAndPort.substring(1, close);
			String rest = hostAndPort.substring(close + 1);
			if (!rest.isEmpty()) {
				if (!rest.startsWith(":")) {
					throw invalid(connect, "'" + hostAndPort + "' has text after the IPv6 address that is not :port");
				}
				port = rest.substring(1);
			}
		}
		else {
			int colon = hostAndPort.indexOf(':');
			if (colon >= 0) {
				if (hostAndPort.indexOf(':', colon + 1) >= 0) {
					throw invalid(connect, "'" + hostAndPort + "' has more than one ':'");
				}
				host = hostAndPort.substring(0, colon);
				port = hostAndPort.substring(colon + 1);
			}
			if (!host.matches("[A-Za-z0-9._-]+")) {
				throw invalid(connect, "'" + host + "' is not a host name or address");
			}
		}
		if (host.isEmpty()) {
			throw invalid(connect, "'" + hostAndPort + "' has no host");
		}
		if (port != null) {
			validatePort(connect, hostAndPort, port);
		}
	}

	private static void validatePort(String connect, String hostAndPort, String port) {
		int number;
		try {
			number = Integer.parseInt(port);
		}
		catch (NumberFormatException ex) {
			throw invalid(connect, "'" + port + "' in '" + hostAndPort + "' is not a port number");
		}
		if (number < 1 || number > 65535) {
			throw invalid(connect, "port " + number + " in '" + hostAndPort + "' is outside 1-65535");
		}
	}

	private static ZkStartupException invalid(String connect, String reason) {
		return new ZkStartupException(PROPERTY + " '" + connect + "' is not a valid connect string: " + reason + ".",
				FORM);
	}

}
