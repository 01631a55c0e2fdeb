package dev.zkspring.lock;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * For a tool holding a {@link CuratorFramework} (the operator's {@code locks} command): one key's queue as
 * ZooKeeper holds it, one entry per JVM in line, so an operator sees who holds a key and who waits without
 * asking any instance. Read-only; the client must use the applications' {@code zk.namespace}.
 * @param key the lock key, decoded from its znode's name
 * @param znode the key's node under the lock root
 * @param entries the JVMs in line, in the order they came
 */
public record LockQueue(String key, String znode, List<Entry> entries) {

	/**
	 * One JVM's node in a key's line.
	 * @param node the node's name
	 * @param shared whether it asks for a shared (read) hold
	 * @param session the ZooKeeper session that owns the node (0 for a persistent node nobody owns)
	 * @param holds whether it holds the key now (by the same rule the lock applies), else it waits
	 */
	public record Entry(String node, boolean shared, long session, boolean holds) {
	}

	/**
	 * Every key with at least one node in line (or only the one key asked for), sorted by key.
	 * @param client a connected client in the applications' namespace
	 * @param root the applications' {@code zk.lock.root}
	 * @param key only this key, or {@code null} for all
	 * @return the queues; empty when nobody holds or waits
	 * @throws Exception when ZooKeeper cannot be read
	 */
	public static List<LockQueue> read(CuratorFramework client, String root, @Nullable String key) throws Exception {
		List<String> names;
		if (key != null) {
			names = List.of(LockKeys.encode(key));
		}
		else {
			try {
				names = client.getChildren().forPath(root);
			}
			catch (KeeperException.NoNodeException ex) {
				return List.of();
			}
		}
		List<LockQueue> queues = new ArrayList<>();
		for (String name : names) {
			String znode = ZKPaths.makePath(root, name);
			List<String> children = LockNodes.children(client, znode, null, null);
			if (children == null || children.isEmpty()) {
				continue;
			}
			List<Entry> entries = new ArrayList<>();
			for (String child : children) {
				Stat stat = client.checkExists().forPath(ZKPaths.makePath(znode, child));
				if (stat == null) {
					// released meanwhile
					continue;
				}
				boolean shared = !LockNodes.isExclusive(child);
				entries.add(new Entry(child, shared, stat.getEphemeralOwner(),
						LockNodes.blocker(children, child, shared) == null));
			}
			entries.sort(Comparator.comparing(Entry::node, LockNodes.BY_SEQUENCE));
			if (!entries.isEmpty()) {
				queues.add(new LockQueue(decode(name), znode, List.copyOf(entries)));
			}
		}
		queues.sort(Comparator.comparing(LockQueue::key));
		return queues;
	}

	/** The key a node name stands for: the percent-encoding of {@link LockKeys} undone. */
	static String decode(String name) {
		byte[] bytes = new byte[name.length()];
		int length = 0;
		for (int i = 0; i < name.length(); i++) {
			char c = name.charAt(i);
			if (c == '%' && i + 2 < name.length()) {
				bytes[length++] = (byte) Integer.parseInt(name.substring(i + 1, i + 3), 16);
				i += 2;
			}
			else {
				bytes[length++] = (byte) c;
			}
		}
		return new String(bytes, 0, length, StandardCharsets.UTF_8);
	}

}
