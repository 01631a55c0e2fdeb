package dev.zkspring.leader;

import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.List;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.recipes.leader.Participant;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

import dev.zkspring.client.OwnedPaths;

/**
 * One participation in the election: a {@link LeaderLatch} and the ZooKeeper-side confirmation of
 * its leadership. A seat whose node has gone, or belongs to an ended session, is closed and replaced.
 */
final class LatchSeat implements Closeable {

	private static final Log logger = LogFactory.getLog(LatchSeat.class);

	private final CuratorFramework client;

	private final String latchPath;

	private final String participantId;

	private final LeaderLatch latch;

	private int lastClaimVersion = -1;

	LatchSeat(CuratorFramework client, String latchPath, String participantId, LeaderLatchListener listener) {
		this.client = client;
		this.latchPath = latchPath;
		this.participantId = participantId;
		this.latch = new LeaderLatch(client, latchPath, participantId);
		this.latch.addListener(listener);
	}

	void start() throws Exception {
		OwnedPaths.ensure(this.client, this.latchPath);
		this.latch.start();
	}

	/** Whether the latch believes it leads; never enough on its own, see {@link #claim()}. */
	boolean latchLeads() {
		return this.latch.hasLeadership();
	}

	/**
	 * Confirm in ZooKeeper that this seat's node exists and belongs to the current session, and in the
	 * same transaction write the participant id to the latch node, whose zxid becomes the epoch.
	 * @return the claim, or {@code null} when the node is gone or belongs to an ended session
	 * @throws Exception when ZooKeeper cannot be asked (the claim is retried on reconnection)
	 */
	@Nullable Claim claim() throws Exception {
		return claim(this.lastClaimVersion);
	}

	/**
	 * As {@link #claim()}; the latch node's data counts as this instance's own earlier claim (not an
	 * abrupt predecessor) only when its version is the one that claim wrote.
	 * @param lastOwnVersion the data version of this instance's last claim, -1 for none
	 */
	@Nullable Claim claim(int lastOwnVersion) throws Exception {
		String ourPath = this.latch.getOurPath();
		if (ourPath == null) {
			throw new IllegalStateException("the latch has no node yet");
		}
		long sessionId = this.client.getZookeeperClient().getZooKeeper().getSessionId();
		Stat stat = this.client.checkExists().forPath(ourPath);
		if (stat == null || stat.getEphemeralOwner() != sessionId) {
			return null;
		}
		// a leader writes its id here and clears it when it hands over gracefully
		Stat previousStat = new Stat();
		String previous = new String(this.client.getData().storingStatIn(previousStat).forPath(this.latchPath),
				StandardCharsets.UTF_8);
		try {
			List<CuratorTransactionResult> results = this.client.transaction()
				.forOperations(this.client.transactionOp().check().withVersion(stat.getVersion()).forPath(ourPath),
						this.client.transactionOp()
							.setData()
							.forPath(this.latchPath, this.participantId.getBytes(StandardCharsets.UTF_8)));
			Stat written = results.get(1).getResultStat();
			boolean ownClaim = previous.equals(this.participantId) && previousStat.getVersion() == lastOwnVersion;
			String abruptPredecessor = (previous.isEmpty() || ownClaim) ? null : previous;
			this.lastClaimVersion = written.getVersion();
			return new Claim(ourPath, written.getMzxid(), written.getVersion(), abruptPredecessor);
		}
		catch (KeeperException.NoNodeException | KeeperException.BadVersionException ex) {
			return null;
		}
	}

	/**
	 * Watch the claimed node, so its deletion by anyone but this seat is noticed while leading.
	 * @return whether the node still existed when the watch was set
	 */
	boolean watchDeletion(String path, Runnable onDeleted) throws Exception {
		return this.client.checkExists().usingWatcher(deletionWatcher(path, onDeleted)).forPath(path) != null;
	}

	/**
	 * The watch is one-shot: any write to the node (by anyone, without {@code zk.auth}) spends it, so every
	 * event but the deletion itself and connection news arms it again, or reports a node gone meanwhile.
	 */
	private CuratorWatcher deletionWatcher(String path, Runnable onDeleted) {
		return (event) -> {
			switch (event.getType()) {
				case NodeDeleted -> onDeleted.run();
				case None -> {
					// connection news leaves the watch in place
				}
				default -> this.client.checkExists()
					.usingWatcher(deletionWatcher(path, onDeleted))
					.inBackground((client, result) -> {
						if (result.getResultCode() == KeeperException.Code.NONODE.intValue()) {
							onDeleted.run();
						}
						else if (result.getResultCode() != KeeperException.Code.OK.intValue()) {
							logger.warn("Could not watch latch node " + path + " again after a change to it ("
									+ KeeperException.Code.get(result.getResultCode()) + "); its deletion may go unnoticed");
						}
					})
					.forPath(path);
			}
		};
	}

	/** The group as ZooKeeper sees it now: participants in election order, and the leader among them. */
	ElectionGroup readGroup() throws Exception {
		Collection<Participant> all = this.latch.getParticipants();
		String leader = all.stream().filter(Participant::isLeader).map(Participant::getId).findFirst().orElse(null);
		return new ElectionGroup(leader, all.stream().map(Participant::getId).toList(), Instant.now(), true);
	}

	/**
	 * Mark a leadership as handed over gracefully, so the successor acts without a takeover delay;
	 * skipped when another leader has written since.
	 */
	void markReleased(int claimedVersion) {
		try {
			this.client.setData().withVersion(claimedVersion).forPath(this.latchPath, new byte[0]);
		}
		catch (Exception ex) {
			// another leader wrote since, or ZooKeeper is unreachable: the successor waits the takeover delay
		}
	}

	/** Leave the election: the latch deletes this seat's node, which wakes the next participant. */
	@Override
	public void close() {
		if (this.latch.getState() == LeaderLatch.State.STARTED) {
			try {
				this.latch.close();
			}
			catch (Exception ex) {
				// the node is ephemeral: it goes with the session at the latest
			}
		}
	}

	/**
	 * A confirmed leadership: the node that leads, the epoch and data version written for it, and the
	 * previous leader if it did not hand over gracefully.
	 */
	record Claim(String path, long epoch, int version, @Nullable String abruptPredecessor) {
	}

}
