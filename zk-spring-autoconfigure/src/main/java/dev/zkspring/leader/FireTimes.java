package dev.zkspring.leader;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;

import dev.zkspring.client.OwnedPaths;
import dev.zkspring.client.SessionLease;
import dev.zkspring.leader.ZkLeaderElection.Term;

/**
 * Per trigger, the last scheduled fire time a leader started, kept in ZooKeeper beside the group's
 * latch node ({@code {latch}.fire-times/{trigger}}, data {@code epoch:millis}). Each write is fenced by
 * the leadership: it commits only in one transaction with a check that the latch node's data version is
 * still the one the term's claim wrote, so a deposed leader cannot record (and so cannot start) a firing.
 */
final class FireTimes {

	private static final Log logger = LogFactory.getLog(FireTimes.class);

	private final CuratorFramework client;

	private final String latchPath;

	private final String root;

	FireTimes(CuratorFramework client, String latchPath) {
		this.client = client;
		this.latchPath = latchPath;
		this.root = latchPath + ".fire-times";
	}

	/**
	 * Record that the term starts the given fire time, with other operations in the same transaction;
	 * false when it did not commit (not leading, or unreachable). The caller checks the lease after.
	 */
	boolean record(Term term, SessionLease lease, String trigger, long fireTimeMillis, List<CuratorOp> alsoCommit) {
		byte[] data = (term.epoch() + ":" + fireTimeMillis).getBytes(StandardCharsets.UTF_8);
		String node = node(trigger);
		for (int attempt = 0; attempt < 2; attempt++) {
			SessionLease.Stamp stamp = lease.beforeRequest();
			try {
				List<CuratorOp> operations = new ArrayList<>();
				operations.add(this.client.transactionOp().check().withVersion(term.version()).forPath(this.latchPath));
				operations.add(this.client.transactionOp().setData().forPath(node, data));
				operations.addAll(alsoCommit);
				this.client.transaction().forOperations(operations);
				lease.replied(stamp);
				return true;
			}
			catch (KeeperException.NoNodeException ex) {
				lease.replied(stamp);
				if (!create(node)) {
					return false;
				}
			}
			catch (Exception ex) {
				// a lost fence (BadVersion), or ZooKeeper unreachable: this firing does not start
				return false;
			}
		}
		return false;
	}

	/**
	 * Commit the operations in one transaction with the term's fence (a check of the latch node's data
	 * version); false when the fence was lost.
	 * @throws Exception when another operation failed, or ZooKeeper could not be asked
	 */
	boolean commit(Term term, SessionLease lease, List<CuratorOp> operations) throws Exception {
		List<CuratorOp> all = new ArrayList<>();
		all.add(this.client.transactionOp().check().withVersion(term.version()).forPath(this.latchPath));
		all.addAll(operations);
		SessionLease.Stamp stamp = lease.beforeRequest();
		try {
			this.client.transaction().forOperations(all);
		}
		catch (KeeperException.BadVersionException ex) {
			return false;
		}
		lease.replied(stamp);
		return lease.isValidFor(term.session());
	}

	/** The operation deleting the trigger's record, for a trigger that will never fire again anywhere. */
	CuratorOp forget(String trigger) throws Exception {
		return this.client.transactionOp().delete().forPath(node(trigger));
	}

	/** The last fire time any leader started for the trigger, if one was recorded. */
	OptionalLong last(String trigger) throws Exception {
		// the records decide which fire times run: nobody else may write beside them
		OwnedPaths.ensure(this.client, this.root);
		byte[] data;
		try {
			data = this.client.getData().forPath(node(trigger));
		}
		catch (KeeperException.NoNodeException ex) {
			return OptionalLong.empty();
		}
		String text = new String(data, StandardCharsets.UTF_8);
		int colon = text.indexOf(':');
		try {
			return OptionalLong.of(Long.parseLong(text.substring(colon + 1)));
		}
		catch (NumberFormatException ex) {
			return OptionalLong.empty();
		}
	}

	private boolean create(String node) {
		try {
			OwnedPaths.ensure(this.client, this.root);
			this.client.create().creatingParentsIfNeeded().forPath(node, new byte[0]);
			return true;
		}
		catch (KeeperException.NodeExistsException ex) {
			return true;
		}
		catch (Exception ex) {
			logger.warn("Could not create the fire-time record " + node + "; the firing does not start: " + ex.getMessage());
			return false;
		}
	}

	/** The record of a trigger. */
	String node(String trigger) {
		return this.root + "/" + URLEncoder.encode(trigger, StandardCharsets.UTF_8);
	}

}
