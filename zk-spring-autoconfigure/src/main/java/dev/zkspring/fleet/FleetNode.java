package dev.zkspring.fleet;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

import dev.zkspring.client.OwnedPaths;

/**
 * This instance's ephemeral node, written only from the publisher's one thread: set while it belongs to
 * the current session, created again under a new one (a node a previous session of this instance left
 * behind is replaced, not updated, so it cannot vanish with that session's end).
 */
final class FleetNode {

	private final CuratorFramework client;

	private final String parent;

	private final String path;

	private boolean parentChecked;

	private long createdIn;

	FleetNode(CuratorFramework client, String parent, String path) {
		this.client = client;
		this.parent = parent;
		this.path = path;
	}

	String path() {
		return this.path;
	}

	void write(byte[] data) throws Exception {
		long session = this.client.getZookeeperClient().getZooKeeper().getSessionId();
		if (session == this.createdIn) {
			try {
				this.client.setData().forPath(this.path, data);
				return;
			}
			catch (KeeperException.NoNodeException ex) {
				// deleted under us: create it again
			}
		}
		if (!this.parentChecked) {
			OwnedPaths.ensure(this.client, this.parent);
			this.parentChecked = true;
		}
		try {
			this.client.create().withMode(CreateMode.EPHEMERAL).forPath(this.path, data);
		}
		catch (KeeperException.NodeExistsException ex) {
			Stat stat = this.client.checkExists().forPath(this.path);
			if (stat != null && stat.getEphemeralOwner() == session) {
				this.client.setData().forPath(this.path, data);
			}
			else {
				if (stat != null) {
					this.client.delete().withVersion(stat.getVersion()).forPath(this.path);
				}
				this.client.create().withMode(CreateMode.EPHEMERAL).forPath(this.path, data);
			}
		}
		this.createdIn = session;
	}

	void delete() throws Exception {
		if (this.createdIn != 0) {
			try {
				this.client.delete().forPath(this.path);
			}
			catch (KeeperException.NoNodeException ex) {
				// gone already
			}
			this.createdIn = 0;
		}
	}

}
