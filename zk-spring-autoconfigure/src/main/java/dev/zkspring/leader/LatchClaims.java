package dev.zkspring.leader;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import dev.zkspring.client.SessionLease;
import dev.zkspring.leader.term.Term;

/**
 * On the leadership thread, turns the latch's belief that it leads into a granted {@link Term}:
 * confirms it in ZooKeeper (a seat whose node is gone is replaced), serves the takeover delay after an
 * abrupt predecessor, held across this instance's own re-claims until served in full, then grants
 * and watches the latch node, whose deletion revokes.
 */
final class LatchClaims {

	private static final Log logger = LogFactory.getLog(ZkLeaderElection.class);

	private final LeadershipCycle cycle;

	private final LeadershipAnnouncer announcer;

	private final Duration takeoverDelay;

	/** A takeover delay started for an abrupt predecessor and not yet served. */
	private long takeoverNotBefore;

	private boolean takeoverPending;

	/** The latch node's data version this election last wrote, -1 for none. */
	private int lastClaimVersion = -1;

	LatchClaims(LeadershipCycle cycle, LeadershipAnnouncer announcer, Duration takeoverDelay) {
		this.cycle = cycle;
		this.announcer = announcer;
		this.takeoverDelay = takeoverDelay;
	}

	/** On the leadership thread: confirm the latch's leadership in ZooKeeper and act on it. */
	void tryToLead() {
		LatchSeat current = this.cycle.seat();
		long expectedGeneration = (current != null) ? this.cycle.claimableGeneration(current) : -1;
		if (expectedGeneration < 0) {
			return;
		}
		String latchPath = this.cycle.latchPath();
		SessionLease currentLease = this.cycle.lease();
		SessionLease.Stamp stamp = currentLease.beforeRequest();
		LatchSeat.Claim claim;
		try {
			claim = current.claim(this.lastClaimVersion);
			currentLease.replied(stamp);
		}
		catch (Exception ex) {
			logger.warn("Could not confirm leadership of " + latchPath + "; will retry on reconnection: " + ex);
			return;
		}
		if (claim == null) {
			logger.info("Latch node under " + latchPath + " is gone or belongs to an ended session; re-joining");
			this.cycle.drainListeners();
			this.cycle.leave();
			this.cycle.join();
			return;
		}
		this.lastClaimVersion = claim.version();
		if (claim.abruptPredecessor() != null) {
			// a write by another instance since this one's last claim; held across this instance's own
			// re-claims (which find their own write) until served in full
			long notBefore = System.nanoTime() + this.takeoverDelay.toNanos();
			if (!this.takeoverPending || notBefore - this.takeoverNotBefore > 0) {
				this.takeoverNotBefore = notBefore;
			}
			this.takeoverPending = true;
			logger.info("Previous leader " + claim.abruptPredecessor() + " of " + latchPath
					+ " did not hand over gracefully");
		}
		if (this.takeoverPending && !awaitTakeoverDelay(expectedGeneration, latchPath)) {
			return;
		}
		Term granted = new Term(claim.path(), claim.epoch(), claim.version(), stamp.session());
		if (!this.cycle.grant(granted, expectedGeneration, currentLease)) {
			return;
		}
		this.takeoverPending = false;
		watchNode(current, granted);
		if (this.cycle.term() == granted) {
			this.announcer.announceGranted(granted);
		}
	}

	/** Wait out the takeover delay on the leadership thread; false when leadership was revoked meanwhile. */
	private boolean awaitTakeoverDelay(long expectedGeneration, String latchPath) {
		long deadline = this.takeoverNotBefore;
		if (deadline - System.nanoTime() <= 0) {
			return true;
		}
		logger.info("Waiting " + Duration.ofNanos(deadline - System.nanoTime()) + " (zk.leader.takeover-delay) before "
				+ "acting as leader of " + latchPath);
		while (System.nanoTime() < deadline) {
			if (!this.cycle.isCurrent(expectedGeneration)) {
				return false;
			}
			LockSupport.parkNanos(Math.min(deadline - System.nanoTime(), TimeUnit.MILLISECONDS.toNanos(10)));
		}
		return true;
	}

	private void watchNode(LatchSeat current, Term granted) {
		Runnable onDeleted = () -> {
			if (this.cycle.term() == granted) {
				this.cycle.revokeNow(LeadershipReason.NODE_LOST);
				this.cycle.inOrder(() -> {
					if (this.cycle.isRunning() && this.cycle.seat() == current) {
						this.cycle.leave();
						this.cycle.join();
					}
				});
			}
		};
		try {
			if (!current.watchDeletion(granted.path(), onDeleted)) {
				onDeleted.run();
			}
		}
		catch (Exception ex) {
			logger.debug("Could not watch latch node " + granted.path(), ex);
		}
	}

}
