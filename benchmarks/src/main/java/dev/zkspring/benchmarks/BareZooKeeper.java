package dev.zkspring.benchmarks;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The floor under an uncontended lock: the same ZooKeeper requests a lock sends, on the raw
 * {@link ZooKeeper} handle under the client, with no lock around them (no queue order, no watch, no
 * session lease, no local state). Uncontended rows only: they exclude nobody.
 */
final class BareZooKeeper implements LockLibrary {

	private static final byte[] EMPTY = new byte[0];

	private static final AsyncCallback.StringCallback IGNORE_CREATE = (rc, path, ctx, name) -> {
	};

	private static final AsyncCallback.VoidCallback IGNORE_DELETE = (rc, path, ctx) -> {
	};

	/** Our pattern: create and getChildren sent back to back, one reply awaited, delete not awaited. */
	static final BareZooKeeper PIPELINED = new BareZooKeeper(true);

	/** The textbook pattern (Curator's): create → getChildren → delete, each awaited. */
	static final BareZooKeeper SEQUENTIAL = new BareZooKeeper(false);

	private static final AtomicLong attempts = new AtomicLong();

	private final boolean pipelined;

	private BareZooKeeper(boolean pipelined) {
		this.pipelined = pipelined;
	}

	@Override
	public String name() {
		return this.pipelined ? "bare ZooKeeper: create + getChildren together, delete not awaited"
				: "bare ZooKeeper: create → getChildren → delete";
	}

	@Override
	public boolean blocking() {
		return false;
	}

	@Override
	public Locks open(CuratorFramework client) throws Exception {
		ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
		String root = "/bench-bare-" + (this.pipelined ? "pipelined" : "sequential");
		Set<String> ensured = ConcurrentHashMap.newKeySet();
		return new Locks() {
			public void acquireRelease(String key) throws Exception {
				String path = root + "/" + key;
				if (ensured.add(path) && client.checkExists().forPath(path) == null) {
					// persistent, not a container: the server would remove an emptied container between operations
					client.create().creatingParentsIfNeeded().forPath(path);
				}
				String attempt = "a" + attempts.incrementAndGet() + "-";
				if (BareZooKeeper.this.pipelined) {
					zk.create(path + "/" + attempt, EMPTY, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL,
							IGNORE_CREATE, null);
					zk.delete(path + "/" + ours(zk.getChildren(path, false), attempt), -1, IGNORE_DELETE, null);
				}
				else {
					String node = zk.create(path + "/" + attempt, EMPTY, ZooDefs.Ids.OPEN_ACL_UNSAFE,
							CreateMode.EPHEMERAL_SEQUENTIAL);
					ours(zk.getChildren(path, false), attempt);
					zk.delete(node, -1);
				}
			}

			public boolean tryOnce(String key) {
				throw new UnsupportedOperationException("the floor rows are uncontended only");
			}

			public void hold(String key) {
				throw new UnsupportedOperationException("the floor rows are uncontended only");
			}
		};
	}

	private static String ours(List<String> children, String attempt) {
		for (String child : children) {
			if (child.startsWith(attempt)) {
				return child;
			}
		}
		throw new IllegalStateException("the read behind the create did not see node " + attempt);
	}

}
