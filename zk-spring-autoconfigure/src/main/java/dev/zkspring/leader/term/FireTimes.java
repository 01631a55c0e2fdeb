package dev.zkspring.leader.term;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zkspring.client.OwnedPaths;
import dev.zkspring.client.SessionLease;

/**
 * Per trigger, the last scheduled fire time a leader started, kept in ZooKeeper beside the application's
 * latch node ({@code {latch}.fire-times/{trigger}}, data {@code epoch:millis}) whichever election gates
 * the trigger, so the record is the trigger's own: with leader groups, instances whose groupings differ
 * (a rolling deploy moving a job to another group) gate it by different elections, and the record still
 * lets each fire time start once. Each write is fenced by the gating leadership (one transaction with a
 * check that the latch node's data version is still the one the term's claim wrote, so a deposed leader
 * cannot record, and so cannot start, a firing) and conditional on the record's own version, so of two
 * leaders of different elections firing the same fire time, the first to record it runs it.
 */
public final class FireTimes {

	/**
	 * Quartz's default misfire threshold: how late a leader may fire, and how far a recorded fire time may
	 * lie ahead; the gated scheduler's default threshold.
	 */
	public static final Duration MISFIRE_THRESHOLD = Duration.ofSeconds(60);

	private static final Log logger = LogFactory.getLog(FireTimes.class);

	private final CuratorFramework client;

	private final String latchPath;

	/** Where the records are read and written: beside the application's latch node. */
	private volatile String root;

	/** Where a group's election kept its records before they moved beside the application's, read as a fallback. */
	private volatile @Nullable String legacyRoot;

	/** Per record: its version as this instance last wrote it, so a sole leader writes without reading first. */
	private final Map<String, Integer> versions = new ConcurrentHashMap<>();

	FireTimes(CuratorFramework client, String latchPath) {
		this.client = client;
		this.latchPath = latchPath;
		this.root = latchPath + ".fire-times";
	}

	/** Keep the records beside another latch node (the application's), for an election of a leader group. */
	void keepBeside(String applicationLatchPath) {
		String shared = applicationLatchPath + ".fire-times";
		if (!shared.equals(this.root)) {
			this.legacyRoot = this.root;
			this.root = shared;
		}
	}

	/**
	 * Record that the term starts the given fire time, with other operations in the same transaction;
	 * false when it did not commit (not leading, unreachable, or the fire time was recorded already, by a
	 * leader of another election). The caller checks the lease after.
	 */
	boolean record(Term term, SessionLease lease, String trigger, long fireTimeMillis, List<CuratorOp> alsoCommit) {
		byte[] data = (term.epoch() + ":" + fireTimeMillis).getBytes(StandardCharsets.UTF_8);
		String node = node(trigger);
		for (int attempt = 0; attempt < 3; attempt++) {
			SessionLease.Stamp stamp = lease.beforeRequest();
			try {
				Integer version = this.versions.get(node);
				if (version == null) {
					Stat stat = new Stat();
					OptionalLong recorded = parse(this.client.getData().storingStatIn(stat).forPath(node));
					lease.replied(stamp);
					if (recorded.isPresent() && startedAlready(recorded.getAsLong(), fireTimeMillis)) {
						logger.debug("Fire time " + fireTimeMillis + " of " + trigger + " was started already (" + node
								+ "); it does not start again under " + this.latchPath);
						return false;
					}
					version = stat.getVersion();
					stamp = lease.beforeRequest();
				}
				List<CuratorOp> operations = new ArrayList<>();
				operations.add(this.client.transactionOp().check().withVersion(term.version()).forPath(this.latchPath));
				operations.add(this.client.transactionOp().setData().withVersion(version).forPath(node, data));
				operations.addAll(alsoCommit);
				List<CuratorTransactionResult> results = this.client.transaction().forOperations(operations);
				lease.replied(stamp);
				this.versions.put(node, results.get(1).getResultStat().getVersion());
				return true;
			}
			catch (KeeperException.NoNodeException ex) {
				lease.replied(stamp);
				this.versions.remove(node);
				if (!create(node)) {
					return false;
				}
			}
			catch (KeeperException.BadVersionException ex) {
				lease.replied(stamp);
				this.versions.remove(node);
				if (fenceFailed(ex)) {
					return false;
				}
				// another election's leader recorded this trigger since: read again and decide
			}
			catch (Exception ex) {
				// ZooKeeper unreachable, or another operation failed: this firing does not start
				this.versions.remove(node);
				return false;
			}
		}
		return false;
	}

	/**
	 * Whether a recorded fire time means this one was started: it is not earlier, and not so far ahead
	 * that no leader can have written it (a planted record, which the next write replaces).
	 */
	private static boolean startedAlready(long recorded, long fireTimeMillis) {
		long bound = Math.max(fireTimeMillis, System.currentTimeMillis()) + MISFIRE_THRESHOLD.toMillis();
		return recorded >= fireTimeMillis && recorded <= bound;
	}

	/** Whether the transaction failed on its first operation, the leadership's fence. */
	private static boolean fenceFailed(KeeperException ex) {
		List<OpResult> results = ex.getResults();
		return results == null || results.isEmpty()
				|| (results.get(0) instanceof OpResult.ErrorResult error && error.getErr() != 0);
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
		this.versions.remove(node(trigger));
		return this.client.transactionOp().delete().forPath(node(trigger));
	}

	/** The last fire time any leader started for the trigger, if one was recorded. */
	OptionalLong last(String trigger) throws Exception {
		// the records decide which fire times run: nobody else may write beside them
		OwnedPaths.ensure(this.client, this.root);
		try {
			return parse(this.client.getData().forPath(node(trigger)));
		}
		catch (KeeperException.NoNodeException ex) {
			String legacy = this.legacyRoot;
			if (legacy == null) {
				return OptionalLong.empty();
			}
			try {
				return parse(this.client.getData().forPath(legacy + "/" + encode(trigger)));
			}
			catch (KeeperException.NoNodeException none) {
				return OptionalLong.empty();
			}
		}
	}

	private static OptionalLong parse(byte[] data) {
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
		return this.root + "/" + encode(trigger);
	}

	private static String encode(String trigger) {
		return URLEncoder.encode(trigger, StandardCharsets.UTF_8);
	}

}
