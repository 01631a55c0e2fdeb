package dev.zkspring.client;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.ClientInfo;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.data.Stat;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.jspecify.annotations.Nullable;

/**
 * One client's side of {@link OwnedPaths}: its identity, whether it may repair, and the nodes already
 * found to be its own. A node is creator-only for us when every entry of its ACL grants all
 * permissions to one of our identities, as ZooKeeper writes it for a node we create with
 * {@code CREATOR_ALL_ACL}.
 */
final class PathOwner {

	private static final Log logger = LogFactory.getLog(OwnedPaths.class);

	/** Not Curator's default (the local address): the leader reads a group node's data as its last leader. */
	private static final byte[] NO_DATA = new byte[0];

	private final boolean checked;

	private final boolean repair;

	private final @Nullable String scheme;

	private final @Nullable String credentials;

	/** Below these (the lock and leader roots) a repair removes what is not ours: holder nodes, records. */
	private final List<String> recordRoots;

	private final Set<String> owned = ConcurrentHashMap.newKeySet();

	private @Nullable Set<Id> identity;

	private PathOwner(boolean checked, boolean repair, @Nullable String scheme, @Nullable String credentials,
			List<String> recordRoots) {
		this.checked = checked;
		this.repair = repair;
		this.scheme = scheme;
		this.credentials = credentials;
		this.recordRoots = recordRoots;
	}

	/** A client with credentials: its nodes must be creator-only for it. */
	static PathOwner checking(ZkClientSettings.Auth auth) {
		return new PathOwner(true, auth.repairAcls(), auth.scheme(), auth.credentials(), auth.recordRoots());
	}

	/** A client without credentials, or not built by zk-spring: missing nodes are created, nothing is checked. */
	static PathOwner unchecked() {
		return new PathOwner(false, false, null, null, List.of());
	}

	static String fullPath(CuratorFramework client, String path) {
		String namespace = client.getNamespace();
		String prefix = (namespace == null || namespace.isEmpty()) ? "" : "/" + namespace;
		return "/".equals(path) ? (prefix.isEmpty() ? "/" : prefix) : prefix + path;
	}

	void ensure(CuratorFramework client, String path) throws Exception {
		String full = fullPath(client, path);
		if (this.owned.contains(full)) {
			return;
		}
		synchronized (this) {
			CuratorFramework root = client.nonNamespaceView();
			for (String node : nodes(client.getNamespace(), full)) {
				if (!this.owned.contains(node)) {
					own(client, root, node, true);
					this.owned.add(node);
				}
			}
			this.owned.add(full);
		}
	}

	/** The namespace node (the whole namespace, as one), then every node below it down to the path. */
	private static List<String> nodes(@Nullable String namespace, String full) {
		List<String> nodes = new ArrayList<>();
		String current = (namespace == null || namespace.isEmpty()) ? "" : "/" + namespace;
		if (!current.isEmpty()) {
			nodes.add(current);
		}
		for (String segment : full.substring(current.length()).split("/")) {
			if (!segment.isEmpty()) {
				current = current + "/" + segment;
				nodes.add(current);
			}
		}
		return nodes;
	}

	private void own(CuratorFramework client, CuratorFramework root, String node, boolean create) throws Exception {
		while (true) {
			Stat stat = new Stat();
			List<ACL> acl;
			try {
				acl = root.getACL().storingStatIn(stat).forPath(node);
			}
			catch (KeeperException.NoNodeException ex) {
				if (!create || created(root, node)) {
					return;
				}
				continue;
			}
			catch (KeeperException.NoAuthException ex) {
				throw ownedByOthers(node, "is not readable by this identity");
			}
			if (!this.checked || ours(root, acl)) {
				return;
			}
			if (this.repair && isRecord(client, node)) {
				// a holder node or a record someone else created: adopted, it would block a key or be trusted
				remove(root, node, acl);
				if (!create) {
					return;
				}
				continue;
			}
			if (!this.repair) {
				throw new ZkStartupException("Znode " + node + " is not creator-only for this application's identity "
						+ "(zk.auth.*): its ACL is " + describe(acl) + ", so others may delete and add nodes beside "
						+ "zk-spring's lock and leadership nodes under it.",
						"Delete " + node + " (deleteall in zkCli) while no instance runs, and zk-spring re-creates it "
								+ "creator-only; or set its ACL to this application's identity (in zkCli: addauth "
								+ "digest <user>:<password>, then setAcl " + node + " auth::cdrwa); or set "
								+ "zk.auth.repair-acls=true to let zk-spring do that at startup.");
			}
			try {
				root.setACL().withVersion(stat.getAversion()).withACL(ZooDefs.Ids.CREATOR_ALL_ACL).forPath(node);
			}
			catch (KeeperException.BadVersionException | KeeperException.NoNodeException ex) {
				continue;
			}
			catch (KeeperException.NoAuthException ex) {
				throw ownedByOthers(node, "is " + describe(acl));
			}
			logger.warn("Made znode " + node + " creator-only for this application (zk.auth.repair-acls); its ACL was "
					+ describe(acl));
			// whatever others added while they could is suspect too
			for (String child : root.getChildren().forPath(node)) {
				own(client, root, ZKPaths.makePath(node, child), false);
			}
			return;
		}
	}

	/** Whether the node lies below the lock or the leader root, where every node is a key's, a holder's or a record. */
	private boolean isRecord(CuratorFramework client, String node) {
		return this.recordRoots.stream()
			.filter((recordRoot) -> !"/".equals(recordRoot))
			.anyMatch((recordRoot) -> node.startsWith(fullPath(client, recordRoot) + "/"));
	}

	private static void remove(CuratorFramework root, String node, List<ACL> acl) throws Exception {
		try {
			root.delete().deletingChildrenIfNeeded().forPath(node);
		}
		catch (KeeperException.NoNodeException ex) {
			return;
		}
		catch (KeeperException.NoAuthException ex) {
			throw ownedByOthers(node, "is " + describe(acl));
		}
		logger.warn("Removed znode " + node + " (and what was below it): it lies under zk-spring's lock or leader root "
				+ "but was not created by this application (ACL " + describe(acl) + "), and zk.auth.repair-acls never "
				+ "adopts a holder node or record of someone else's");
	}

	private static ZkStartupException ownedByOthers(String node, String acl) {
		return new ZkStartupException("Znode " + node + " is not creator-only for this application's identity "
				+ "(zk.auth.*) and zk-spring may not make it so: its ACL " + acl + ", and this identity lacks the "
				+ "ADMIN permission on it.",
				"Ask whoever owns " + node + " to delete it or to give it this application's ACL, or choose paths of "
						+ "your own with zk.namespace, zk.lock.root and zk.leader.root.");
	}

	/** Whether we created the node; false when someone else did first. */
	private boolean created(CuratorFramework root, String node) throws Exception {
		try {
			if (this.checked) {
				root.create()
					.creatingParentsIfNeeded()
					.withMode(CreateMode.PERSISTENT)
					.withACL(ZooDefs.Ids.CREATOR_ALL_ACL)
					.forPath(node, NO_DATA);
			}
			else {
				root.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(node, NO_DATA);
			}
			return true;
		}
		catch (KeeperException.NodeExistsException ex) {
			return false;
		}
	}

	private boolean ours(CuratorFramework root, List<ACL> acl) throws Exception {
		Set<Id> ids = identity(root);
		return !acl.isEmpty()
				&& acl.stream().allMatch((entry) -> entry.getPerms() == ZooDefs.Perms.ALL && ids.contains(entry.getId()));
	}

	/**
	 * The ids ZooKeeper puts in the ACL of a node we create creator-only. The digest one is computed as the
	 * server does (whose whoAmI shows only the user name, which anyone can claim with another password);
	 * others, such as the x509 one of a TLS client certificate, are asked of the server (whoAmI, 3.7+).
	 */
	private Set<Id> identity(CuratorFramework client) throws Exception {
		Set<Id> ids = this.identity;
		if (ids == null) {
			ids = new HashSet<>();
			if ("digest".equals(this.scheme) && this.credentials != null) {
				ids.add(new Id("digest", DigestAuthenticationProvider.generateDigest(this.credentials)));
			}
			List<ClientInfo> infos = client.getZookeeperClient().getZooKeeper().whoAmI();
			if (infos != null) {
				for (ClientInfo info : infos) {
					if (!"ip".equals(info.getAuthScheme()) && !"digest".equals(info.getAuthScheme())) {
						ids.add(new Id(info.getAuthScheme(), info.getUser()));
					}
				}
			}
			this.identity = ids;
		}
		return ids;
	}

	/** As zkCli shows an ACL, with the password digest of digest identities left out. */
	static String describe(List<ACL> acl) {
		return acl.stream().map((entry) -> {
			Id id = entry.getId();
			String name = "digest".equals(id.getScheme()) ? id.getId().split(":", 2)[0] : id.getId();
			return id.getScheme() + ":" + name + ":" + permissions(entry.getPerms());
		}).collect(Collectors.joining(", ", "[", "]"));
	}

	private static String permissions(int perms) {
		StringBuilder letters = new StringBuilder();
		int[] bits = { ZooDefs.Perms.CREATE, ZooDefs.Perms.DELETE, ZooDefs.Perms.READ, ZooDefs.Perms.WRITE,
				ZooDefs.Perms.ADMIN };
		String names = "cdrwa";
		for (int i = 0; i < bits.length; i++) {
			if ((perms & bits[i]) != 0) {
				letters.append(names.charAt(i));
			}
		}
		return (letters.length() > 0) ? letters.toString() : "none";
	}

}
