package dev.zkspring.config;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import dev.zkspring.client.ZkStartupException;

/**
 * The oldest ZooKeeper server the config center works with, and the refusal when the ensemble is
 * older: contexts are read in one multi-read and watched with persistent watches, both new in 3.6, and
 * an older server answers {@code Unimplemented} and closes the connection. The refusal names the
 * server's version, asked with the {@code srvr} four-letter word (allowed by default since 3.5.3) where
 * the server answers it.
 */
final class ServerVersion {

	/** The oldest server version the config center needs. */
	static final String MINIMUM = "3.6.0";

	private static final int TIMEOUT_MILLIS = 1000;

	private ServerVersion() {
	}

	/** The refusal for a server that answered {@code Unimplemented} to a multi-read or a persistent watch. */
	static ZkStartupException tooOld(CuratorFramework client) {
		String connectString = client.getZookeeperClient().getCurrentConnectionString();
		String version = ask(connectString);
		String server = "The ZooKeeper server at '" + connectString + "' "
				+ ((version != null) ? "is version " + version
						: "is older than " + MINIMUM + " (its version could not be asked with the srvr four-letter word)");
		return new ZkStartupException(server + "; zk-spring's configuration needs ZooKeeper " + MINIMUM
				+ " or later: it reads the contexts in one multi-read and watches them with persistent watches, which "
				+ "older servers do not implement.",
				"Upgrade the ensemble to ZooKeeper " + MINIMUM + " or later (3.8 and 3.9 are tested), or set "
						+ "zk.config.enabled=false to use locks and leadership without the config center.");
	}

	/** The version the first server of the connect string that answers {@code srvr} gives, e.g. {@code 3.5.10}. */
	static @Nullable String ask(String connectString) {
		String hosts = connectString.contains("/") ? connectString.substring(0, connectString.indexOf('/')) : connectString;
		for (String host : hosts.split(",")) {
			int colon = host.lastIndexOf(':');
			if (colon < 0) {
				continue;
			}
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(host.substring(0, colon).replace("[", "").replace("]", ""),
						Integer.parseInt(host.substring(colon + 1).trim())), TIMEOUT_MILLIS);
				socket.setSoTimeout(TIMEOUT_MILLIS);
				OutputStream out = socket.getOutputStream();
				out.write("srvr".getBytes(StandardCharsets.US_ASCII));
				out.flush();
				InputStream in = socket.getInputStream();
				String version = parse(new String(in.readNBytes(4096), StandardCharsets.US_ASCII));
				if (version != null) {
					return version;
				}
			}
			catch (Exception ex) {
				// not answered here (TLS only, four-letter words refused, unreachable): try the next
			}
		}
		return null;
	}

	/** The version in a {@code srvr} answer ({@code Zookeeper version: 3.5.10-a32c..., built on ...}). */
	static @Nullable String parse(String answer) {
		String prefix = "Zookeeper version: ";
		int start = answer.indexOf(prefix);
		if (start < 0) {
			return null;
		}
		int end = start + prefix.length();
		while (end < answer.length() && (Character.isDigit(answer.charAt(end)) || answer.charAt(end) == '.')) {
			end++;
		}
		String version = answer.substring(start + prefix.length(), end);
		return version.isEmpty() ? null : version;
	}

}
