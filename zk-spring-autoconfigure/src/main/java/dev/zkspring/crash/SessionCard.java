package dev.zkspring.crash;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zkspring.client.OwnedPaths;

/**
 * The session cards: one ephemeral node per session, {@code {root}/{session id in hex}}, holding the
 * instance's id, its listener's address and the session's password. A waiter knows only the session that
 * owns the node ahead of it (its ephemeral owner), so one read gives it where to connect and what to end
 * the session with. With {@code zk.auth} the node is creator-only: only the application's credentials
 * read the password. The node goes with its session, so a card is never stale; it is deleted first on a
 * graceful stop, so that a watcher that then finds the listener closed does nothing.
 */
final class SessionCard {

	private static final String FORMAT = "zk-spring-crash-1";

	private final CuratorFramework client;

	private final String root;

	private final List<ACL> acl;

	/** What a card says. */
	record Card(long session, String instance, InetSocketAddress address, byte[] password) {

		String describe() {
			return this.instance + " (" + this.address.getHostString() + ":" + this.address.getPort() + ")";
		}

	}

	SessionCard(CuratorFramework client, String root, boolean restricted) {
		this.client = client;
		this.root = root;
		this.acl = restricted ? ZooDefs.Ids.CREATOR_ALL_ACL : ZooDefs.Ids.OPEN_ACL_UNSAFE;
	}

	String path(long session) {
		return ZKPaths.makePath(this.root, Long.toHexString(session));
	}

	/**
	 * Write the card of the client's current session (create it, or replace a node of that name that
	 * another session planted).
	 * @return the session written for
	 */
	long write(String instance, InetSocketAddress address) throws Exception {
		ZooKeeper zooKeeper = this.client.getZookeeperClient().getZooKeeper();
		long session = zooKeeper.getSessionId();
		byte[] data = encode(instance, address, zooKeeper.getSessionPasswd());
		OwnedPaths.ensure(this.client, this.root);
		String path = path(session);
		try {
			this.client.create().withMode(CreateMode.EPHEMERAL).withACL(this.acl).forPath(path, data);
		}
		catch (KeeperException.NodeExistsException ex) {
			Stat stat = this.client.checkExists().forPath(path);
			if (stat != null && stat.getEphemeralOwner() != session) {
				this.client.delete().forPath(path);
				this.client.create().withMode(CreateMode.EPHEMERAL).withACL(this.acl).forPath(path, data);
			}
			else {
				this.client.setData().forPath(path, data);
			}
		}
		return session;
	}

	void delete(long session) throws Exception {
		try {
			this.client.delete().forPath(path(session));
		}
		catch (KeeperException.NoNodeException ex) {
			// gone with its session
		}
	}

	/**
	 * The card of a session, or {@code null} when it has none (detection off there, stopped gracefully,
	 * or the session ended); the watcher, when given, is told when the card appears.
	 */
	@Nullable Card read(long session, @Nullable Watcher whenCreated) throws Exception {
		String path = path(session);
		try {
			Stat stat = new Stat();
			byte[] data = this.client.getData().storingStatIn(stat).forPath(path);
			if (stat.getEphemeralOwner() != session) {
				return null;
			}
			return decode(session, data);
		}
		catch (KeeperException.NoAuthException ex) {
			// another application's session, or credentials other than the ones that wrote it
			return null;
		}
		catch (KeeperException.NoNodeException ex) {
			if (whenCreated != null && this.client.checkExists().usingWatcher(whenCreated).forPath(path) != null) {
				return read(session, null);
			}
			return null;
		}
	}

	static byte[] encode(String instance, InetSocketAddress address, byte[] password) {
		String text = FORMAT + "\n" + address.getHostString() + "\n" + address.getPort() + "\n"
				+ Base64.getEncoder().encodeToString(password) + "\n" + instance;
		return text.getBytes(StandardCharsets.UTF_8);
	}

	static @Nullable Card decode(long session, byte[] data) {
		String[] lines = new String(data, StandardCharsets.UTF_8).split("\n", 5);
		if (lines.length != 5 || !FORMAT.equals(lines[0])) {
			return null;
		}
		try {
			InetSocketAddress address = InetSocketAddress.createUnresolved(lines[1], Integer.parseInt(lines[2]));
			return new Card(session, lines[4], address, Base64.getDecoder().decode(lines[3]));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

}
